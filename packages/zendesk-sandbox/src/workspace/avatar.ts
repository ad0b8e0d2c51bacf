import { escapeHtml } from '@incident-desk/threat-text';

/** Up to two initials of a name, for the avatar circles that stand in for people's pictures. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = (words.length > 1 ? [words[0]!, words[words.length - 1]!] : words).map((w) =>
    [...w][0]!.toUpperCase(),
  );
  return letters.join('') || '?';
}

/** An avatar circle: initials on one of six colours, the same colour for the same name. */
export function renderAvatar(name: string, size: 'small' | 'normal' = 'normal'): string {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.codePointAt(0)!) >>> 0;
  return (
    `<span class="avatar${size === 'small' ? ' small' : ''} tone-${(hash % 6) + 1}" aria-hidden="true">` +
    `${escapeHtml(initialsOf(name))}</span>`
  );
}
