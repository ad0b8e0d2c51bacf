// What both API clients share: how they wait before a retry, and the strict writer.
export * from './retry';
export * from './strict-writer';
