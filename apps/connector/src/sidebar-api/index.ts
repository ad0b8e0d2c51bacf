export { sidebarApiRouter, type SidebarApiOptions } from './sidebar-api-router';
export type { SidebarInstallations, SidebarCaller } from './authenticate';
export type { TSidebarTicketView, TSidebarTicket, TLinkState } from './ticket-view';
