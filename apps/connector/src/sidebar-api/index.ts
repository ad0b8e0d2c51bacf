export { sidebarApiRouter, type SidebarApiOptions } from './sidebar-api-router';
export type { SidebarCaller } from './authenticate';
export { SIDEBAR_PAGE_PATH } from './sidebar-page';
// The response shapes are the sidebar's contract (apps/sidebar/SIDEBAR_API.md).
export type {
  TLinkState,
  TSidebarTicket,
  TSidebarTicketView,
} from '@incident-desk/sidebar-contract';
