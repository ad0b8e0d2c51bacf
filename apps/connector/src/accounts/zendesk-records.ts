// The connector's view of Zendesk: the records (tickets, comments, users, attachments), the client
// and the settings the other folders see. They import these from accounts, never the client package.
export {
  checkAttachmentHosts,
  verifyZendeskWebhook,
  ZENDESK_ATTACHMENT_HOSTS,
  type TAttachment,
  type TComment,
  type TTicket,
  type TUser,
  type ZendeskClient,
  type ZendeskMarketplaceIdentity,
} from '@incident-desk/zendesk-api';
