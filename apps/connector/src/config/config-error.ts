// A configuration the connector refuses to start with: the message names each variable at fault.
export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function fail(problems: string[]): never {
  throw new ConfigError(`invalid connector configuration: ${problems.join('; ')}`);
}
