import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireRole } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { statistics, statsRange } from '../services/statistics.service.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a day: YYYY-MM-DD');

const Growth = z.array(z.object({ period: z.string(), added: z.number().int(), total: z.number().int() }));

const StatisticsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    interval: z.enum(['day', 'month']),
    totals: z.object({
      users: z.number().int(),
      projects: z.number().int(),
      activeSubscriptions: z.number().int(),
      creditsAvailable: z.number(),
    }),
    users: Growth,
    projects: Growth,
    hectaresProcessed: z.array(z.object({ period: z.string(), hectares: z.number() })),
    processing: z.array(z.object({ period: z.string(), success: z.number().int(), failure: z.number().int() })),
    storage: z.object({
      totalBytes: z.number(),
      byLayer: z.array(z.object({ layer: z.string(), bytes: z.number() })),
      topUsers: z.array(z.object({ userId: z.string(), email: z.string(), bytes: z.number() })),
    }),
    subscriptionsPerTemplate: z.array(
      z.object({
        templateId: z.string().nullable(),
        name: z.string(),
        category: z.string(),
        active: z.number().int(),
        suspended: z.number().int(),
        inactive: z.number().int(),
        unsubscribed: z.number().int(),
      }),
    ),
    revenue: z.array(
      z.object({
        period: z.string(),
        currency: z.string(),
        amount: z.number().openapi({ description: 'Minor units (cents).' }),
        payments: z.number().int(),
      }),
    ),
  })
  .openapi('Statistics');

const statisticsRoute = createRoute({
  method: 'get',
  path: '/admin/statistics',
  tags: ['Admin: statistics'],
  summary: 'Statistics of the platform (admin)',
  description:
    'Series per day or month over [from, to] (days, UTC, both included; default the last 12 months by month, at most 400 periods): users and projects (added, running total), hectares processed, processings ended well or not, revenue per currency; and now: storage used, subscriptions per template and status, totals.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    query: z.object({
      from: day.optional(),
      to: day.optional(),
      interval: z.enum(['day', 'month']).optional(),
    }),
  },
  responses: {
    200: jsonResponse(StatisticsSchema, 'The statistics'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'],
      403: ['FORBIDDEN'],
    }),
  },
});

/** Admin statistics (spec §2: tabs overview and subscriptions), from SQL aggregates. */
export function statisticsRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.openapi(statisticsRoute, async (c) => c.json(await statistics(deps, statsRange(c.req.valid('query'))), 200));
  return app;
}
