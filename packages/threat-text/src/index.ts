export { defang } from './defang';
export { defangLinksIn } from './link-scan';
export { escapeHtml } from './escape-html';
export {
  extractThreats,
  ZENDESK_OWN_HOSTS,
  type ExtractThreatsOptions,
  type FoundThreat,
  type ThreatSource,
  type ThreatSourceComment,
  type TThreatPlace,
} from './extract-threats';
export { kindOfValue, normalizeThreat, type TThreatKind } from './normalize-threat';
export { refang } from './refang';
export { byTakedownRank, isWellKnownSite, WELL_KNOWN_DOMAINS } from './takedown-targets';
export { cutToLength, ELLIPSIS, plainText } from './plain-text';
