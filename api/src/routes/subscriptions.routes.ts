import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { SUBSCRIPTION_SORT_COLUMNS, TEMPLATE_SORT_COLUMNS } from '../db/queries/subscriptions.queries.js';
import { requireRole, requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import {
  errorResponses,
  jsonBody,
  jsonResponse,
  SESSION_SECURITY,
  tablePageSchema,
  tableQuerySchema,
} from '../openapi/schemas.js';
import {
  activateLast,
  activateSubscription,
  cancelCurrent,
  cancelSubscription,
  createTemplate,
  currentOf,
  editSubscription,
  editTemplate,
  getEvents,
  getLedger,
  getSubscription,
  getTemplate,
  grantCredits,
  listSubscriptionsPage,
  listTemplatesPage,
  reactivateSubscription,
  subscribeUser,
  suspendAll,
  suspendSubscription,
} from '../services/subscription-admin.service.js';
import {
  CategorySchema,
  CurrentSubscriptionSchema,
  EventSchema,
  IdParams,
  LedgerPageSchema,
  MAX_HECTARES,
  SubscriptionEditSchema,
  SubscriptionSchema,
  SubscriptionStateSchema,
  TemplateCreateSchema,
  TemplateEditSchema,
  TemplateSchema,
} from './subscriptions.schemas.js';

const USER_TAG = ['Subscriptions'];
const ADMIN_TAG = ['Admin: subscriptions'];
const AUTH_ERRORS = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;
const ADMIN_ERRORS = { ...AUTH_ERRORS, 403: ['FORBIDDEN'] } as const;

const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(10_000).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

// ---------------------------------------------------------------- the user's own

const currentRoute = createRoute({
  method: 'get',
  path: '/subscriptions/current',
  tags: USER_TAG,
  summary: 'My current subscription',
  description:
    'The subscription that applies now (spec §3: status, credits, allowance, allocation dates, validUntil, limits), with the projects and bytes used. 404 NO_SUBSCRIPTION without one.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(CurrentSubscriptionSchema, 'The current subscription'),
    ...errorResponses({ ...AUTH_ERRORS, 404: ['NO_SUBSCRIPTION'] }),
  },
});

const myLedgerRoute = createRoute({
  method: 'get',
  path: '/subscriptions/current/ledger',
  tags: USER_TAG,
  summary: 'My credits history',
  description:
    'Every movement of my credits, newest first: allocations, grants, reservations of processings, releases, charges, transfers.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { query: PageQuery },
  responses: {
    200: jsonResponse(LedgerPageSchema, 'One page of the ledger'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...AUTH_ERRORS }),
  },
});

const cancelMineRoute = createRoute({
  method: 'post',
  path: '/subscriptions/current/cancel',
  tags: USER_TAG,
  summary: 'Cancel my subscription',
  description:
    'Takes effect at the anniversary (end of the period paid for): until then the subscription stays active with unsubscribePending; a paid one is cancelled at the payment provider at the end of its period.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(SubscriptionSchema, 'The subscription, cancellation pending'),
    ...errorResponses({
      ...AUTH_ERRORS,
      404: ['NO_SUBSCRIPTION'],
      409: ['SUBSCRIPTION_STATE_CONFLICT'],
      502: ['PAYMENT_PROVIDER_ERROR'],
    }),
  },
});

// ---------------------------------------------------------------- admin: subscriptions

const listRoute = createRoute({
  method: 'get',
  path: '/admin/subscriptions',
  tags: ADMIN_TAG,
  summary: 'Subscriptions table (admin, tab subscribed)',
  description:
    'Table contract (limit, offset, sortBy, order, search on name, user email, template, payment id) with filters status, userId, templateId and current.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    query: tableQuerySchema(SUBSCRIPTION_SORT_COLUMNS, 'id').extend({
      status: SubscriptionStateSchema.optional(),
      userId: z
        .string()
        .regex(/^\d{1,18}$/)
        .optional(),
      templateId: z
        .string()
        .regex(/^\d{1,18}$/)
        .optional(),
      current: bool.optional().openapi({ description: 'true: only the subscription that applies to each user now.' }),
    }),
  },
  responses: {
    200: jsonResponse(tablePageSchema(SubscriptionSchema, 'SubscriptionPage'), 'One page'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS }),
  },
});

const subscribeRoute = createRoute({
  method: 'post',
  path: '/admin/subscriptions',
  tags: ADMIN_TAG,
  summary: 'Subscribe a user to a template (admin)',
  description:
    "activate (default true): it becomes the user's current subscription now, with the template's credits (the previous one hands its credits over); false: it waits, inactive.",
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    body: jsonBody(
      z.strictObject({
        userId: z.string().regex(/^\d{1,18}$/),
        templateId: z.string().regex(/^\d{1,18}$/),
        activate: z.boolean().optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(SubscriptionSchema, 'Created'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['NO_ACCOUNT', 'TEMPLATE_NOT_FOUND'] }),
  },
});

const suspendAllRoute = createRoute({
  method: 'post',
  path: '/admin/subscriptions/suspend-all',
  tags: ADMIN_TAG,
  summary: 'Suspend all subscriptions of a user, or of everyone (admin)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    body: jsonBody(
      z.strictObject({
        userId: z
          .string()
          .regex(/^\d{1,18}$/)
          .optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(z.object({ suspended: z.number().int() }), 'How many were suspended'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS }),
  },
});

const activateLastRoute = createRoute({
  method: 'post',
  path: '/admin/subscriptions/activate-last',
  tags: ADMIN_TAG,
  summary: "Activate a user's last subscription (admin)",
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { body: jsonBody(z.strictObject({ userId: z.string().regex(/^\d{1,18}$/) })) },
  responses: {
    200: jsonResponse(SubscriptionSchema, 'Activated'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['NO_SUBSCRIPTION'] }),
  },
});

const getRoute = createRoute({
  method: 'get',
  path: '/admin/subscriptions/{id}',
  tags: ADMIN_TAG,
  summary: 'One subscription with its history (admin)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams },
  responses: {
    200: jsonResponse(
      z.object({ subscription: SubscriptionSchema, events: z.array(EventSchema) }).openapi('SubscriptionDetail'),
      'The subscription and who changed what, newest first',
    ),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['SUBSCRIPTION_NOT_FOUND'] }),
  },
});

const editRoute = createRoute({
  method: 'patch',
  path: '/admin/subscriptions/{id}',
  tags: ADMIN_TAG,
  summary: 'Edit a subscription (admin)',
  description: 'Fields left out keep their value; null limits mean the configured default. Audited.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams, body: jsonBody(SubscriptionEditSchema) },
  responses: {
    200: jsonResponse(SubscriptionSchema, 'Updated'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['SUBSCRIPTION_NOT_FOUND'] }),
  },
});

const ledgerRoute = createRoute({
  method: 'get',
  path: '/admin/subscriptions/{id}/ledger',
  tags: ADMIN_TAG,
  summary: "A subscription's credits ledger (admin)",
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams, query: PageQuery },
  responses: {
    200: jsonResponse(LedgerPageSchema, 'One page of the ledger'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS }),
  },
});

const creditsRoute = createRoute({
  method: 'post',
  path: '/admin/subscriptions/{id}/credits',
  tags: ADMIN_TAG,
  summary: 'Grant or remove credits by hand (admin)',
  description:
    'hectares > 0 adds them (a grant), < 0 takes them off (409 CREDITS_NEGATIVE below zero). Written to the ledger with the admin and the note.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    params: IdParams,
    body: jsonBody(
      z.strictObject({
        hectares: z
          .number()
          .min(-MAX_HECTARES)
          .max(MAX_HECTARES)
          .refine((h) => h !== 0, 'not zero'),
        note: z.string().trim().max(2000).optional(),
      }),
    ),
  },
  responses: {
    200: jsonResponse(SubscriptionSchema, 'Updated'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      ...ADMIN_ERRORS,
      404: ['SUBSCRIPTION_NOT_FOUND'],
      409: ['CREDITS_NEGATIVE'],
    }),
  },
});

const ACTIONS = {
  activate: 'Activate: active, enabled and the user’s current subscription (spec §4).',
  suspend: 'Suspend: no project creation, upload or processing until reactivated.',
  reactivate: 'Reactivate a suspended (or deactivated) subscription.',
  cancel:
    'Cancel at the anniversary: stays active with unsubscribePending until validUntil, then the scheduled job ends it.',
} as const;

const actionRoute = (action: keyof typeof ACTIONS) =>
  createRoute({
    method: 'post',
    path: `/admin/subscriptions/{id}/${action}`,
    tags: ADMIN_TAG,
    summary: `${action[0]!.toUpperCase()}${action.slice(1)} a subscription (admin)`,
    description: `${ACTIONS[action]} Audited (who, when).`,
    security: SESSION_SECURITY,
    middleware: [requireRole('admin')] as const,
    request: { params: IdParams },
    responses: {
      200: jsonResponse(SubscriptionSchema, 'Updated'),
      ...errorResponses({
        400: ['FORM_INVALID'],
        ...ADMIN_ERRORS,
        404: ['SUBSCRIPTION_NOT_FOUND'],
        409: ['SUBSCRIPTION_STATE_CONFLICT'],
        ...(action === 'cancel' ? { 502: ['PAYMENT_PROVIDER_ERROR'] as const } : {}),
      }),
    },
  });

// ---------------------------------------------------------------- admin: templates

const templatesRoute = createRoute({
  method: 'get',
  path: '/admin/subscription-templates',
  tags: ADMIN_TAG,
  summary: 'Templates table (admin, tab templates)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: {
    query: tableQuerySchema(TEMPLATE_SORT_COLUMNS, 'id').extend({
      enabled: bool.optional(),
      category: CategorySchema.optional(),
    }),
  },
  responses: {
    200: jsonResponse(tablePageSchema(TemplateSchema, 'SubscriptionTemplatePage'), 'One page'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS }),
  },
});

const createTemplateRoute = createRoute({
  method: 'post',
  path: '/admin/subscription-templates',
  tags: ADMIN_TAG,
  summary: 'Create a template (admin)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { body: jsonBody(TemplateCreateSchema) },
  responses: {
    201: jsonResponse(TemplateSchema, 'Created'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS }),
  },
});

const getTemplateRoute = createRoute({
  method: 'get',
  path: '/admin/subscription-templates/{id}',
  tags: ADMIN_TAG,
  summary: 'One template with its history (admin)',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams },
  responses: {
    200: jsonResponse(
      z.object({ template: TemplateSchema, events: z.array(EventSchema) }).openapi('SubscriptionTemplateDetail'),
      'The template',
    ),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['TEMPLATE_NOT_FOUND'] }),
  },
});

const editTemplateRoute = createRoute({
  method: 'patch',
  path: '/admin/subscription-templates/{id}',
  tags: ADMIN_TAG,
  summary: 'Edit, deactivate or reactivate a template (admin)',
  description:
    'enabled false deactivates it (not offered nor subscribed to any more; subscriptions made from it go on), true reactivates it. Audited.',
  security: SESSION_SECURITY,
  middleware: [requireRole('admin')] as const,
  request: { params: IdParams, body: jsonBody(TemplateEditSchema) },
  responses: {
    200: jsonResponse(TemplateSchema, 'Updated'),
    ...errorResponses({ 400: ['FORM_INVALID'], ...ADMIN_ERRORS, 404: ['TEMPLATE_NOT_FOUND'] }),
  },
});

/**
 * Subscriptions (spec §3, §4, §7 /subscriptions/current): the user's own
 * (current, credits history, cancel) and the admin screens (subscriptions
 * and templates: lists, views, edits, actions, credits by hand).
 */
export function subscriptionsRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  const actor = (c: { get(k: 'user'): { id: string } }) => ({ id: c.get('user').id });

  app.openapi(currentRoute, async (c) => c.json(await currentOf(deps, c.get('user').id), 200));
  app.openapi(myLedgerRoute, async (c) =>
    c.json(await getLedger(deps, { userId: c.get('user').id }, c.req.valid('query')), 200),
  );
  app.openapi(cancelMineRoute, async (c) => c.json(await cancelCurrent(deps, c.get('user').id), 200));

  app.openapi(listRoute, async (c) => {
    const q = c.req.valid('query');
    return c.json(await listSubscriptionsPage(deps, { ...q, currentOnly: q.current }), 200);
  });
  app.openapi(subscribeRoute, async (c) => c.json(await subscribeUser(deps, actor(c), c.req.valid('json')), 201));
  app.openapi(suspendAllRoute, async (c) =>
    c.json({ suspended: await suspendAll(deps, actor(c), c.req.valid('json')) }, 200),
  );
  app.openapi(activateLastRoute, async (c) =>
    c.json(await activateLast(deps, actor(c), c.req.valid('json').userId), 200),
  );
  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const subscription = await getSubscription(deps, id);
    return c.json({ subscription, events: await getEvents(deps, { subscriptionId: id }) }, 200);
  });
  app.openapi(editRoute, async (c) =>
    c.json(await editSubscription(deps, actor(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(ledgerRoute, async (c) =>
    c.json(await getLedger(deps, { subscriptionId: c.req.valid('param').id }, c.req.valid('query')), 200),
  );
  app.openapi(creditsRoute, async (c) =>
    c.json(await grantCredits(deps, actor(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  app.openapi(actionRoute('activate'), async (c) =>
    c.json(await activateSubscription(deps, actor(c), c.req.valid('param').id), 200),
  );
  app.openapi(actionRoute('suspend'), async (c) =>
    c.json(await suspendSubscription(deps, actor(c), c.req.valid('param').id), 200),
  );
  app.openapi(actionRoute('reactivate'), async (c) =>
    c.json(await reactivateSubscription(deps, actor(c), c.req.valid('param').id), 200),
  );
  app.openapi(actionRoute('cancel'), async (c) =>
    c.json(await cancelSubscription(deps, actor(c), c.req.valid('param').id), 200),
  );

  app.openapi(templatesRoute, async (c) => c.json(await listTemplatesPage(deps, c.req.valid('query')), 200));
  app.openapi(createTemplateRoute, async (c) => c.json(await createTemplate(deps, actor(c), c.req.valid('json')), 201));
  app.openapi(getTemplateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const template = await getTemplate(deps, id);
    return c.json({ template, events: await getEvents(deps, { templateId: id }) }, 200);
  });
  app.openapi(editTemplateRoute, async (c) =>
    c.json(await editTemplate(deps, actor(c), c.req.valid('param').id, c.req.valid('json')), 200),
  );
  return app;
}
