import type { TTicket, TUser } from '@incident-desk/zendesk-api';
import { z } from 'zod';

export function customFieldValue(ticket: TTicket, fieldId: number): unknown {
  return ticket.custom_fields.find((field) => field.id === fieldId)?.value ?? null;
}

/** A user's email when it is a usable address (the service validates reportedBy and author). */
export function emailOf(user: TUser | undefined): string | undefined {
  const email = user?.email?.trim();
  return email && z.email().safeParse(email).success ? email : undefined;
}
