import type { Response } from 'express';
import { type InboxOutcome, UnstorableDeliveryError } from '../ingest';
import type { Logger } from '../log';
import { sendError, sendUnavailable } from './app-error';

/**
 * A webhook delivery is answered only after its durable write: 200 with the inbox's verdict, the
 * refusal of a delivery that cannot be stored, or 503 when the write failed, so the sender
 * delivers it again.
 */
export async function answerAfterDurableWrite(
  res: Response,
  write: () => Promise<InboxOutcome>,
  failure: { logger: Logger; receiver: string; what: string },
): Promise<void> {
  try {
    const outcome = await write();
    res.locals.verdict = outcome.status;
    res.status(200).json({ status: outcome.status });
  } catch (error) {
    if (error instanceof UnstorableDeliveryError) {
      return sendError(res, error.reason, error.message);
    }
    failure.logger.error(`${failure.receiver}: durable write failed`, { error });
    sendUnavailable(res, `could not store the ${failure.what}; retry later`);
  }
}
