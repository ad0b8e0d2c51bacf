// The sealing of stored secrets: one key set, bindings that tie a sealed value to its row.
// The one door into secrets/: other folders import only what is exported here.
export { resealUnboundSecrets } from './reseal-unbound';
export { secretBinding } from './secret-bindings';
export { createSecretBox, parseSecretKeys, type SecretBox, type SecretKey } from './secret-box';
