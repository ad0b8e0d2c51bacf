// Threat values are attacker-controlled. Defanging keeps them readable for an analyst while making
// sure no ticket view, mail client or chat tool turns them into a live link.
export function defang(value: string): string {
  return value
    .replace(/\bhttp(s?):\/\//gi, (_match, s: string) => `hxxp${s.toLowerCase()}[:]//`)
    .replace(/([a-z][a-z0-9+-]*):\/\//gi, '$1[:]//')
    .replace(/(?<!\[)\.(?!\])/g, '[.]');
}
