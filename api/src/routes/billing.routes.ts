import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { requireUser } from '../middleware/auth.js';
import { createRouteGroup } from '../openapi/route-group.js';
import { errorResponses, jsonBody, jsonResponse, SESSION_SECURITY } from '../openapi/schemas.js';
import { cancelCheckout, checkoutStatus, handleWebhook, offers, startCheckout } from '../services/billing.service.js';
import { SubscriptionSchema, TemplateSchema } from './subscriptions.schemas.js';

const TAG = ['Purchases'];
const AUTH_ERRORS = { 401: ['UNAUTHORIZED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'TOKEN_REVOKED'] } as const;

const SessionParams = z.object({
  sessionId: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,255}$/, 'a Checkout session id')
    .openapi({ param: { name: 'sessionId', in: 'path' }, example: 'cs_test_a1b2c3' }),
});

const PurchaseSchema = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    status: z.enum(['open', 'completed', 'cancelled', 'expired']),
    mode: z.enum(['subscription', 'payment']),
    template: z.object({ id: z.string(), name: z.string() }).nullable(),
    hectares: z.number().nullable().openapi({ description: 'Credits the purchase added, once completed.' }),
    subscription: SubscriptionSchema.nullable(),
    createdAt: z.string(),
    completedAt: z.string().nullable(),
  })
  .openapi('Purchase');

const offersRoute = createRoute({
  method: 'get',
  path: '/billing/offers',
  tags: TAG,
  summary: 'What can be bought (buy page)',
  description:
    'The enabled PAID templates open now. paymentsConfigured is false without STRIPE_SECRET_KEY: the page then says purchases are not configured.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  responses: {
    200: jsonResponse(
      z.object({ paymentsConfigured: z.boolean(), templates: z.array(TemplateSchema) }).openapi('Offers'),
      'Offers',
    ),
    ...errorResponses(AUTH_ERRORS),
  },
});

const checkoutRoute = createRoute({
  method: 'post',
  path: '/billing/checkout',
  tags: TAG,
  summary: 'Start a purchase (Stripe Checkout)',
  description:
    'Answers the Stripe Checkout page to send the browser to: a subscription for a template with a period, a one-off payment for a pack. Stripe then returns to #/user/subscription/buy/success or …/cancel with session_id.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { body: jsonBody(z.strictObject({ templateId: z.string().regex(/^\d{1,18}$/) })) },
  responses: {
    200: jsonResponse(z.object({ url: z.string(), sessionId: z.string() }).openapi('CheckoutStart'), 'Go there'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      ...AUTH_ERRORS,
      404: ['TEMPLATE_NOT_FOUND'],
      409: ['TEMPLATE_NOT_AVAILABLE'],
      502: ['PAYMENT_PROVIDER_ERROR'],
      503: ['PAYMENTS_NOT_CONFIGURED'],
    }),
  },
});

const statusRoute = createRoute({
  method: 'get',
  path: '/billing/checkout/{sessionId}',
  tags: TAG,
  summary: 'A purchase of mine (success page)',
  description:
    'Brought up to date from Stripe when the webhook has not told yet, so the success page shows the credits added and the subscription ready.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: SessionParams },
  responses: {
    200: jsonResponse(PurchaseSchema, 'The purchase'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      ...AUTH_ERRORS,
      404: ['CHECKOUT_NOT_FOUND'],
      502: ['PAYMENT_PROVIDER_ERROR'],
    }),
  },
});

const cancelRoute = createRoute({
  method: 'post',
  path: '/billing/checkout/{sessionId}/cancel',
  tags: TAG,
  summary: 'Cancel a purchase (cancel page)',
  description:
    'The Checkout session is expired at Stripe so it cannot be paid later; one paid meanwhile is completed instead.',
  security: SESSION_SECURITY,
  middleware: [requireUser] as const,
  request: { params: SessionParams },
  responses: {
    200: jsonResponse(PurchaseSchema, 'The purchase'),
    ...errorResponses({
      400: ['FORM_INVALID'],
      ...AUTH_ERRORS,
      404: ['CHECKOUT_NOT_FOUND'],
      502: ['PAYMENT_PROVIDER_ERROR'],
    }),
  },
});

const webhookRoute = createRoute({
  method: 'post',
  path: '/billing/stripe/webhook',
  tags: TAG,
  summary: 'Stripe webhook',
  description:
    'Called by Stripe. The Stripe-Signature header is checked on the raw body with STRIPE_WEBHOOK_SECRET (5 minutes of tolerance). Each event id is applied once (replays answer duplicate: true); events may come in any order. Handles checkout.session.completed/expired, invoice.paid, invoice.payment_failed (suspension after PAYMENT_GRACE_DAYS) and customer.subscription.created/updated/deleted.',
  request: {
    headers: z.object({ 'stripe-signature': z.string().optional() }),
  },
  responses: {
    200: jsonResponse(
      z
        .object({
          received: z.literal(true),
          duplicate: z.boolean(),
          outcome: z.enum(['applied', 'ignored']).nullable(),
        })
        .openapi('WebhookReceipt'),
      'Received',
    ),
    ...errorResponses({
      400: ['WEBHOOK_SIGNATURE_INVALID'],
      502: ['PAYMENT_PROVIDER_ERROR'],
      503: ['PAYMENTS_NOT_CONFIGURED'],
    }),
  },
});

/** Purchases through Stripe (spec §2 buy, buy/success, buy/cancel) and its webhook. */
export function billingRoutes(deps: AppDeps) {
  const app = createRouteGroup();
  app.openapi(offersRoute, async (c) => c.json(await offers(deps), 200));
  app.openapi(checkoutRoute, async (c) => {
    const u = c.get('user');
    return c.json(await startCheckout(deps, u, c.req.valid('json').templateId), 200);
  });
  app.openapi(statusRoute, async (c) =>
    c.json(await checkoutStatus(deps, c.get('user').id, c.req.valid('param').sessionId), 200),
  );
  app.openapi(cancelRoute, async (c) =>
    c.json(await cancelCheckout(deps, c.get('user').id, c.req.valid('param').sessionId), 200),
  );
  app.openapi(webhookRoute, async (c) => {
    // The signature covers the exact bytes Stripe sent: read them raw, never re-serialised.
    const raw = new Uint8Array(await c.req.arrayBuffer());
    return c.json(await handleWebhook(deps, raw, c.req.header('stripe-signature')), 200);
  });
  return app;
}
