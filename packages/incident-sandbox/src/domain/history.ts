import type { HistoryEntry, IncidentRecord } from '../state/model';
import type { EventSink } from './events';

export function addHistory(incident: IncidentRecord, entry: HistoryEntry, sink: EventSink): void {
  incident.history.unshift(entry);
  sink.emit({
    event: 'incident.history_created',
    clientId: incident.clientId,
    incidentId: incident.id,
    data: { incidentId: incident.id },
    optional: { historyEntry: { timestamp: entry.timestamp, message: entry.message } },
  });
}
