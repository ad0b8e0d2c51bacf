import type { TWebhookEvent } from './vocabulary';

export interface IncidentEvent {
  event: TWebhookEvent;
  clientId: string;
  incidentId: string | null;
  /** Payload fields always sent. */
  data: Record<string, unknown>;
  /** Payload fields the real service sometimes omits (spec: receivers must use fallbacks). */
  optional?: Record<string, unknown>;
}

export interface EventSink {
  emit(event: IncidentEvent): void;
}
