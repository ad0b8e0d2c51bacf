// The HTTP surface that is not a product API: the webhook receivers, health and operations routes, error answers, the server.
// The one door into http/: other folders import only what is exported here.
export {
  AppError,
  createErrorHandler,
  sendAppError,
  sendError,
  type AppErrorCode,
} from './app-error';
export {
  DEFAULT_HTTP_LIMITS,
  createHttpServer,
  type ConnectionRefusal,
  type HttpServerLimits,
} from './http-server';
export { incidentWebhookRouter } from './incident-webhook';
export { operationsRouter } from './operations-routes';
export { requestLogging } from './request-logging';
export { serviceIndex } from './service-index';
export { ticketingWebhookRouter } from './ticketing-webhook';
