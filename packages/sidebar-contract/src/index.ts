// The sidebar API: one definition for both sides. The connector parses the sidebar's requests and
// types its answers with it; the sidebar parses the answers with it (zod/mini keeps the bundle
// small). Documented in apps/sidebar/SIDEBAR_API.md.
export * from './ticket-view';
export * from './threats';
export * from './requests';
