// Zendesk's documented bounds and the defaults for clients created since early 2026.
export const ACCESS_TOKEN_BOUNDS = { min: 300, max: 172_800, default: 1_800 } as const;
export const REFRESH_TOKEN_BOUNDS = { min: 604_800, max: 7_776_000, default: 2_592_000 } as const;
export const AUTHORIZATION_CODE_TTL_SECONDS = 120;
