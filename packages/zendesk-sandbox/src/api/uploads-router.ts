import { Router } from 'express';
import { addUpload } from '../state/attachments';
import { recordInvalid, recordNotFound } from '../state/sandbox-state';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { readUploadBody } from './read-upload-body';
import { serializeAttachment } from './serialize';

const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

export function uploadsRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state, urls } = ctx;

  router.post('/api/v2/uploads{.json}', requireScope('tickets', 'write'), async (req, res) => {
    const { account } = caller(res);
    const file = await readUploadBody(req, MAX_UPLOAD_BYTES);
    const fileName =
      typeof req.query.filename === 'string' && req.query.filename !== ''
        ? req.query.filename
        : file.fileName;
    if (!fileName)
      throw recordInvalid({
        filename: [{ description: 'Filename: cannot be blank', error: 'BlankValue' }],
      });
    const token = typeof req.query.token === 'string' ? req.query.token : undefined;
    const added = addUpload(
      state,
      account,
      { fileName, contentType: file.contentType, data: file.data },
      token,
    );
    if (!added) throw recordNotFound();
    const attachments = added.upload.attachment_ids
      .map((id) => account.attachments.get(id))
      .filter((a) => a !== undefined)
      .map((a) => serializeAttachment(urls, account, a));
    res.status(201).json({
      upload: {
        token: added.upload.token,
        expires_at: new Date(added.upload.expires_at).toISOString(),
        attachment: serializeAttachment(urls, account, added.attachment),
        attachments,
      },
    });
  });

  router.get('/api/v2/attachments/:id{.json}', requireScope('tickets', 'read'), (req, res) => {
    const { account } = caller(res);
    const attachment = account.attachments.get(Number(req.params.id));
    if (!attachment) throw recordNotFound();
    res.json({ attachment: serializeAttachment(urls, account, attachment) });
  });

  return router;
}

/** content_url targets: served by token without authentication, like Zendesk's public attachment links. */
export function attachmentContentRouter(ctx: SandboxContext): Router {
  const router = Router();
  router.get('/attachments/token/:token{/}', (req, res) => {
    const subdomain = (res.locals as { subdomain?: string }).subdomain;
    const account = subdomain === undefined ? undefined : ctx.state.account(subdomain);
    const attachment = account
      ? [...account.attachments.values()].find((a) => a.token === req.params.token)
      : undefined;
    if (!attachment) {
      res.status(404).json({ error: 'RecordNotFound', description: 'Not found' });
      return;
    }
    res.setHeader('Content-Type', attachment.content_type);
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${attachment.file_name.replace(/"/g, '')}"`,
    );
    res.send(attachment.data);
  });
  return router;
}
