import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * A small Stripe-speaking HTTP server for tests (no mocks inside the product
 * code): the real `stripe` client talks to it through its host/port/protocol
 * options. It keeps customers, prices, Checkout sessions, subscriptions and
 * invoices in memory, serves a hosted checkout page (Pay / Back) that
 * completes a session and redirects like Stripe does, and signs webhook
 * deliveries with the library's generateTestHeaderString.
 *
 * Implemented: POST/GET /v1/customers, POST/GET /v1/checkout/sessions,
 * POST /v1/checkout/sessions/:id/expire, GET/POST/DELETE /v1/subscriptions/:id,
 * GET /v1/invoices/:id.
 */

type Obj = Record<string, unknown>;

/** Parses a form body the Stripe way: `a[b][0][c]=v` into nested objects and arrays. */
export function parseStripeForm(body: string): Obj {
  const out: Obj = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Obj | unknown[] = out;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const slot = Array.isArray(node) ? Number(part) : part;
      const container = node as Record<string | number, unknown>;
      if (last) container[slot] = value;
      else {
        container[slot] ??= nextIsIndex ? [] : {};
        node = container[slot] as Obj;
      }
    });
  }
  return out;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);
const MONTH = 30 * 86_400;

export interface FakePrice {
  id: string;
  unit_amount: number;
  currency: string;
  recurring: { interval: 'month' | 'year' } | null;
}

export class StripeFake {
  readonly secret = `whsec_${randomBytes(16).toString('hex')}`;
  /** Where completions send their webhooks (the Nuage API); null: none sent. */
  webhookUrl: string | null = null;
  readonly customers = new Map<string, Obj>();
  readonly prices = new Map<string, FakePrice>();
  readonly sessions = new Map<string, Obj>();
  readonly subscriptions = new Map<string, Obj>();
  readonly invoices = new Map<string, Obj>();
  /** Every API request received: method and path. */
  readonly requests: Array<{ method: string; path: string }> = [];
  private server: Server | null = null;
  private base = '';
  private readonly signer = new Stripe('sk_test_fake');

  /** Starts on a free port of 127.0.0.1; answers the base URL. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((err) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: String(err) } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  get port(): number {
    return Number(new URL(this.base).port);
  }

  async stop(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  /** The environment a Nuage server needs to use this fake. */
  env(): Record<string, string> {
    return {
      STRIPE_SECRET_KEY: 'sk_test_nuage',
      STRIPE_WEBHOOK_SECRET: this.secret,
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: String(this.port),
      STRIPE_API_PROTOCOL: 'http',
    };
  }

  addPrice(p: Omit<FakePrice, 'id'> & { id?: string }): FakePrice {
    const price = { ...p, id: p.id ?? id('price') };
    this.prices.set(price.id, price);
    return price;
  }

  // ------------------------------------------------------------- state changes (what a customer or time does)

  /**
   * The customer pays a session: it completes; in subscription mode a
   * subscription and its first (paid) invoice are made. Answers the events
   * Stripe would send, in Stripe's usual order (not sent here).
   */
  pay(sessionId: string): Stripe.Event[] {
    const s = this.sessions.get(sessionId);
    if (s?.status !== 'open') throw new Error(`session ${sessionId} is not open`);
    s.status = 'complete';
    s.payment_status = 'paid';
    const events: Stripe.Event[] = [];
    if (s.mode === 'subscription') {
      const price = this.prices.get(String(s._price))!;
      const start = now();
      const subId = id('sub');
      const sub: Obj = {
        id: subId,
        object: 'subscription',
        status: 'active',
        customer: s.customer,
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        metadata: (s._subscription_metadata as Obj) ?? {},
        items: {
          object: 'list',
          data: [
            {
              id: id('si'),
              object: 'subscription_item',
              price,
              current_period_start: start,
              current_period_end: start + (price.recurring?.interval === 'year' ? 12 * MONTH : MONTH),
            },
          ],
        },
        latest_invoice: null,
      };
      this.subscriptions.set(subId, sub);
      const invoice = this.makeInvoice(sub, 'subscription_create', 'paid');
      s.subscription = subId;
      s.invoice = invoice.id;
      events.push(this.event('checkout.session.completed', s));
      events.push(this.event('customer.subscription.created', sub));
      events.push(this.event('invoice.paid', invoice));
    } else {
      s.payment_intent = id('pi');
      events.push(this.event('checkout.session.completed', s));
    }
    return events;
  }

  private makeInvoice(sub: Obj, reason: string, status: 'paid' | 'open'): Obj {
    const item = (sub.items as { data: Array<{ price: FakePrice; current_period_end: number }> }).data[0]!;
    const invoice: Obj = {
      id: id('in'),
      object: 'invoice',
      billing_reason: reason,
      status,
      customer: sub.customer,
      amount_paid: status === 'paid' ? item.price.unit_amount : 0,
      amount_due: item.price.unit_amount,
      currency: item.price.currency,
      period_end: item.current_period_end,
      parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
    };
    this.invoices.set(String(invoice.id), invoice);
    sub.latest_invoice = invoice.id;
    return invoice;
  }

  /** A renewal: the period moves on and its invoice is paid (or fails). Answers the events. */
  renew(subId: string, outcome: 'paid' | 'failed' = 'paid'): { invoice: Obj; events: Stripe.Event[] } {
    const sub = this.subscriptions.get(subId)!;
    const item = (sub.items as { data: Array<Obj & { current_period_end: number; current_period_start: number }> })
      .data[0]!;
    if (outcome === 'paid') {
      item.current_period_start = item.current_period_end;
      item.current_period_end += MONTH;
      sub.status = 'active';
    } else {
      sub.status = 'past_due';
    }
    const invoice = this.makeInvoice(sub, 'subscription_cycle', outcome === 'paid' ? 'paid' : 'open');
    const events = [
      this.event(outcome === 'paid' ? 'invoice.paid' : 'invoice.payment_failed', invoice),
      this.event('customer.subscription.updated', sub),
    ];
    return { invoice, events };
  }

  /** Stripe ends a subscription (cancelled by the customer in Stripe, or unpaid for good). */
  cancel(subId: string): Stripe.Event {
    const sub = this.subscriptions.get(subId)!;
    sub.status = 'canceled';
    sub.canceled_at = now();
    sub.ended_at = now();
    return this.event('customer.subscription.deleted', sub);
  }

  /** An event envelope for an object (a copy of it as it is now). */
  event(type: string, object: Obj): Stripe.Event {
    return {
      id: id('evt'),
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(this.publicCopy(object)) },
    } as unknown as Stripe.Event;
  }

  /** The body and Stripe-Signature header of a delivery (timestamp in seconds; default now). */
  sign(event: Stripe.Event | string, timestamp?: number): { body: string; signature: string } {
    const body = typeof event === 'string' ? event : JSON.stringify(event);
    const signature = this.signer.webhooks.generateTestHeaderString({
      payload: body,
      secret: this.secret,
      ...(timestamp !== undefined ? { timestamp } : {}),
    });
    return { body, signature };
  }

  /** POSTs a signed event to the webhook URL; answers the response. */
  async deliver(event: Stripe.Event, url = this.webhookUrl): Promise<Response> {
    if (!url) throw new Error('no webhook URL');
    const { body, signature } = this.sign(event);
    return fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body,
    });
  }

  // ------------------------------------------------------------- HTTP

  private publicCopy(o: Obj): Obj {
    const out: Obj = {};
    for (const [k, v] of Object.entries(o)) if (!k.startsWith('_')) out[k] = v;
    return out;
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }

  private missing(res: ServerResponse, what: string, key: string): void {
    this.json(res, 404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${key}'` },
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.base);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const method = req.method ?? 'GET';
    const parts = url.pathname.split('/').filter(Boolean);

    // The hosted checkout page (what the browser sees).
    if (parts[0] === 'pay') return this.page(method, parts, res);

    if (parts[0] !== 'v1')
      return this.json(res, 404, { error: { type: 'invalid_request_error', message: 'unknown path' } });
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
      return this.json(res, 401, { error: { type: 'authentication_error', message: 'Invalid API Key provided' } });
    }
    this.requests.push({ method, path: url.pathname });
    const body = method === 'GET' || method === 'DELETE' ? {} : parseStripeForm(raw);
    const [, resource, key, action] = parts;

    if (resource === 'customers') {
      if (method === 'POST' && !key) {
        const c = { id: id('cus'), object: 'customer', email: body.email ?? null, metadata: body.metadata ?? {} };
        this.customers.set(c.id, c);
        return this.json(res, 200, c);
      }
      const c = key ? this.customers.get(key) : undefined;
      return c ? this.json(res, 200, c) : this.missing(res, 'customer', key ?? '');
    }

    if (resource === 'checkout' && key === 'sessions') {
      const sessionId = action;
      const sub = parts[4];
      if (method === 'POST' && !sessionId) return this.createSession(body, res);
      const s = sessionId ? this.sessions.get(sessionId) : undefined;
      if (!s) return this.missing(res, 'checkout.session', sessionId ?? '');
      if (method === 'POST' && sub === 'expire') {
        if (s.status !== 'open') {
          return this.json(res, 400, {
            error: {
              type: 'invalid_request_error',
              message: `Only Checkout Sessions with a status in ["open"] can be expired.`,
            },
          });
        }
        s.status = 'expired';
      }
      return this.json(res, 200, this.publicCopy(s));
    }

    if (resource === 'subscriptions' && key) {
      const s = this.subscriptions.get(key);
      if (!s) return this.missing(res, 'subscription', key);
      if (method === 'POST') {
        if (body.cancel_at_period_end !== undefined) s.cancel_at_period_end = body.cancel_at_period_end === 'true';
      } else if (method === 'DELETE') {
        s.status = 'canceled';
        s.canceled_at = now();
        s.ended_at = now();
      }
      return this.json(res, 200, this.publicCopy(s));
    }

    if (resource === 'invoices' && key) {
      const inv = this.invoices.get(key);
      return inv ? this.json(res, 200, inv) : this.missing(res, 'invoice', key);
    }
    return this.json(res, 404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${url.pathname})` },
    });
  }

  private createSession(body: Obj, res: ServerResponse): void {
    const items = (body.line_items as Array<{ price: string; quantity: string }> | undefined) ?? [];
    const price = items[0] ? this.prices.get(items[0].price) : undefined;
    if (!price) {
      this.json(res, 400, {
        error: {
          type: 'invalid_request_error',
          param: 'line_items[0][price]',
          message: `No such price: '${items[0]?.price}'`,
        },
      });
      return;
    }
    if ((body.mode === 'subscription') !== (price.recurring !== null)) {
      this.json(res, 400, {
        error: { type: 'invalid_request_error', message: 'the mode does not match the price' },
      });
      return;
    }
    const sessionId = id('cs_test');
    const s: Obj = {
      id: sessionId,
      object: 'checkout.session',
      mode: body.mode,
      status: 'open',
      payment_status: 'unpaid',
      customer: body.customer ?? null,
      customer_email: body.customer_email ?? null,
      client_reference_id: body.client_reference_id ?? null,
      metadata: body.metadata ?? {},
      amount_total: price.unit_amount,
      currency: price.currency,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      locale: body.locale ?? null,
      subscription: null,
      invoice: null,
      payment_intent: null,
      created: now(),
      expires_at: now() + 86_400,
      url: `${this.base}/pay/${sessionId}`,
      _price: price.id,
      _subscription_metadata: (body.subscription_data as Obj | undefined)?.metadata ?? {},
    };
    this.sessions.set(sessionId, s);
    this.json(res, 200, this.publicCopy(s));
  }

  private async page(method: string, parts: string[], res: ServerResponse): Promise<void> {
    const s = this.sessions.get(parts[1] ?? '');
    if (!s) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such checkout session');
      return;
    }
    const back = (url: unknown) => String(url).replace('{CHECKOUT_SESSION_ID}', String(s.id));
    if (parts[2] === 'cancel') {
      res.writeHead(303, { location: back(s.cancel_url) });
      res.end();
      return;
    }
    if (method === 'POST') {
      const events = this.pay(String(s.id));
      // Stripe sends its webhooks on its own; the browser comes back at once.
      if (this.webhookUrl) {
        for (const e of events) await this.deliver(e).catch(() => {});
      }
      res.writeHead(303, { location: back(s.success_url) });
      res.end();
      return;
    }
    const price = this.prices.get(String(s._price))!;
    const amount = `${(price.unit_amount / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html><head><title>Test checkout</title><style>
body{font-family:system-ui,sans-serif;background:#f6f9fc;display:flex;justify-content:center;padding-top:60px}
.card{background:#fff;border-radius:8px;box-shadow:0 2px 12px #0002;padding:32px;width:360px}
button{background:#635bff;color:#fff;border:0;border-radius:6px;padding:12px;width:100%;font-size:16px}
a{display:block;text-align:center;margin-top:16px;color:#635bff}
</style></head><body><div class="card"><p>Test mode</p><h1 data-testid="amount">${amount}</h1>
<p>${s.mode === 'subscription' ? `every ${price.recurring?.interval}` : 'one payment'}</p>
<form method="post"><button type="submit">Pay</button></form>
<a href="/pay/${String(s.id)}/cancel">Back</a></div></body></html>`);
  }
}
