// Building the connector: its services, routes, workers and listening servers.
// The one door into connector/: other folders import only what is exported here.
export { buildServices } from './build-services';
export { httpListeners, type ListeningConnector } from './http-listeners';
export { mountRoutes } from './mount-routes';
export { NO_WORKERS, startWorkers, type ConnectorWorkers } from './start-workers';
