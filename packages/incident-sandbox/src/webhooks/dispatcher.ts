import type { EventSink, IncidentEvent } from '../domain/events';
import type { DeliveryRecord, WebhookSubscriptionRecord } from '../state/model';
import type { SandboxStore } from '../state/store';

type SignDelivery = (input: {
  secret: string;
  body: string;
  timestamp: number;
}) => Record<string, string>;

export interface DispatcherOptions {
  /** Delay between a processed change and its first delivery attempt (the real service takes minutes). */
  deliveryDelayMs: number;
  /** Waits before each retry; the number of entries is the number of retries. */
  retryDelaysMs: readonly number[];
  /** A receiver slower than this counts as failed (the spec's 5 seconds). */
  receiverTimeoutMs: number;
  sign: SignDelivery;
  fetch?: typeof fetch;
  /** Source of chance for the fidelity settings (status omission, delivery jitter). Default Math.random. */
  random?: () => number;
}

const MAX_KEPT_DELIVERIES = 2000;

/** Turns incident events into signed, retried webhook deliveries, asynchronously. */
export class WebhookDispatcher implements EventSink {
  private readonly timers = new Set<NodeJS.Timeout>();
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private closed = false;

  constructor(
    private readonly store: SandboxStore,
    private readonly options: DispatcherOptions,
  ) {}

  emit(event: IncidentEvent): void {
    const subscriptions = this.store.state.webhooks.filter(
      (s) => s.active && s.clientId === event.clientId && s.events.includes(event.event),
    );
    if (subscriptions.length === 0) return;
    const eventSeq = this.store.next('event');
    const mode = this.store.state.settings.omitOptionalPayloadFields;
    const omit = mode === 'always' || (mode === 'sometimes' && eventSeq % 3 === 0);
    const data: Record<string, unknown> = omit
      ? { ...event.data }
      : { ...event.data, ...event.optional };
    // "Payload fields are omitted when they do not apply or are not yet populated", status included.
    const settings = this.store.state.settings;
    if (event.event === 'incident.status_changed' && this.chance(settings.statusOmitRate ?? 0))
      delete data.status;
    const envelope = {
      id: this.store.newId('event-id', 'evt_', 20),
      event: event.event,
      timestamp: this.store.now(),
      clientId: event.clientId,
      data,
    };
    for (const subscription of subscriptions) {
      // "Ordering between events is unspecified": a random extra wait lets later events overtake.
      const jitterMs = Math.floor(this.random() * (settings.deliveryJitterMs ?? 0));
      this.enqueue(
        subscription,
        event.incidentId,
        JSON.stringify(envelope),
        undefined,
        this.options.deliveryDelayMs + jitterMs,
      );
    }
  }

  sendTest(subscription: WebhookSubscriptionRecord): DeliveryRecord {
    const envelope = {
      id: this.store.newId('event-id', 'evt_', 20),
      event: 'webhook.test',
      timestamp: this.store.now(),
      clientId: subscription.clientId,
      data: {},
    };
    return this.enqueue(subscription, null, JSON.stringify(envelope), 'webhook.test');
  }

  private random(): number {
    return (this.options.random ?? Math.random)();
  }

  private chance(rate: number): boolean {
    return rate > 0 && this.random() < rate;
  }

  private enqueue(
    subscription: WebhookSubscriptionRecord,
    incidentId: string | null,
    body: string,
    eventName?: DeliveryRecord['event'],
    delayMs = this.options.deliveryDelayMs,
  ): DeliveryRecord {
    const event = eventName ?? (JSON.parse(body) as { event: DeliveryRecord['event'] }).event;
    const delivery: DeliveryRecord = {
      id: this.store.newId('delivery', 'dlv_', 20),
      subscriptionId: subscription.id,
      clientId: subscription.clientId,
      event,
      incidentId,
      body,
      state: 'pending',
      attempts: [],
      nextAttemptAt: new Date(this.store.nowMs() + delayMs).toISOString(),
      createdAt: this.store.now(),
    };
    const deliveries = this.store.state.deliveries;
    deliveries.push(delivery);
    if (deliveries.length > MAX_KEPT_DELIVERIES)
      deliveries.splice(0, deliveries.length - MAX_KEPT_DELIVERIES);
    this.schedule(delivery, delayMs);
    return delivery;
  }

  /** Re-arms deliveries still pending in a loaded data file. */
  resumePending(): void {
    for (const delivery of this.store.state.deliveries) {
      if (delivery.state === 'pending') this.schedule(delivery, this.options.deliveryDelayMs);
    }
  }

  private schedule(delivery: DeliveryRecord, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(delivery);
    }, delayMs);
    this.timers.add(timer);
  }

  private async attempt(delivery: DeliveryRecord): Promise<void> {
    const subscription = this.store.state.webhooks.find((s) => s.id === delivery.subscriptionId);
    if (!subscription || this.closed) {
      delivery.state = 'failed';
      delivery.nextAttemptAt = null;
      this.settle();
      return;
    }
    this.inFlight += 1;
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    let answer = '';
    try {
      // Signed at send time with the current secret, so a rotation takes effect on the next attempt.
      const headers = this.options.sign({
        secret: subscription.secret,
        body: delivery.body,
        timestamp: Math.floor(this.store.nowMs() / 1000),
      });
      const response = await (this.options.fetch ?? fetch)(subscription.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'incident-sandbox-webhooks/1',
          ...headers,
        },
        body: delivery.body,
        signal: AbortSignal.timeout(this.options.receiverTimeoutMs),
      });
      status = response.status;
      if (status < 200 || status >= 300) {
        error = `receiver answered ${status}`;
        answer = (await response.text().catch(() => '')).slice(0, 300);
      } else {
        await response.body?.cancel().catch(() => undefined);
      }
    } catch (err) {
      error =
        err instanceof Error && err.name === 'TimeoutError'
          ? `receiver did not answer within ${this.options.receiverTimeoutMs} ms`
          : `delivery failed: ${err instanceof Error ? err.message : String(err)}`;
    }
    delivery.attempts.push({
      at: new Date(started).toISOString(),
      status,
      error,
      durationMs: Date.now() - started,
      ...(answer ? { response: answer } : {}),
    });
    const retryIndex = delivery.attempts.length - 1;
    if (error === null) {
      delivery.state = 'delivered';
      delivery.nextAttemptAt = null;
    } else if (retryIndex < this.options.retryDelaysMs.length && !this.closed) {
      const wait = this.options.retryDelaysMs[retryIndex] ?? 0;
      delivery.nextAttemptAt = new Date(this.store.nowMs() + wait).toISOString();
      this.schedule(delivery, wait);
    } else {
      delivery.state = 'failed';
      delivery.nextAttemptAt = null;
    }
    this.inFlight -= 1;
    this.store.changed();
    this.settle();
  }

  private settle(): void {
    if (this.timers.size === 0 && this.inFlight === 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** Resolves once no delivery is scheduled or in flight. */
  idle(): Promise<void> {
    if (this.timers.size === 0 && this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.settle();
  }
}
