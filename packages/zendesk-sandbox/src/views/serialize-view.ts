import type { AccountRecord, ViewRecord } from '../state/model';
import type { SandboxUrls } from '../state/urls';
import { executionOf } from './view-columns';

/** A view as Zendesk answers it: conditions under `conditions`, the output as `execution`. */
export function serializeView(urls: SandboxUrls, account: AccountRecord, view: ViewRecord) {
  return {
    url: urls.api(account.subdomain, `views/${view.id}.json`),
    id: view.id,
    title: view.title,
    raw_title: view.title,
    description: view.description,
    active: view.active,
    position: view.position,
    default: false,
    restriction: view.restriction,
    conditions: view.conditions,
    execution: executionOf(urls, account, view.output),
    created_at: view.created_at,
    updated_at: view.updated_at,
  };
}
