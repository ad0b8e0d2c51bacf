// Small shared pieces: a titled section, a date, and an action button that shows its outcome.
// Everything shown comes through React as text; nothing is inserted as markup.
import { useState, type ReactNode } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { SM, XL } from '@zendeskgarden/react-typography';
import { actionErrorText } from './action-error-text';
import { useLanguage, useTexts } from './i18n/i18n';

export function Section(props: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={props.id} aria-labelledby={`${props.id}-title`} style={{ marginBottom: 32 }}>
      <XL tag="h2" id={`${props.id}-title`} isBold style={{ marginBottom: 8 }}>
        {props.title}
      </XL>
      {props.children}
    </section>
  );
}

/**
 * A table wider than a narrow screen scrolls in its own box, never the page; the box takes the
 * focus so the keyboard scrolls it too.
 */
export function WideTable(props: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={props.label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {props.children}
    </div>
  );
}

export function When(props: { value: string | null; never?: string }) {
  const t = useTexts();
  const language = useLanguage();
  if (!props.value) return <span>{props.never ?? t.common.never}</span>;
  return <time dateTime={props.value}>{new Date(props.value).toLocaleString(language)}</time>;
}

export function Row(props: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div
      style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12, margin: '4px 0' }}
      data-testid={props.testId}
    >
      <SM isBold style={{ flex: '0 0 220px' }}>
        {props.label}
      </SM>
      <SM style={{ minWidth: 0, overflowWrap: 'anywhere' }}>{props.children}</SM>
    </div>
  );
}

/** A button running one call; shows "…" while it runs and the outcome (or error) next to it. */
export function ActionButton(props: {
  id?: string;
  label: string;
  run: () => Promise<string | void>;
  isPrimary?: boolean;
  size?: 'small' | 'medium';
}) {
  const t = useTexts();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
      <Button
        id={props.id}
        size={props.size ?? 'small'}
        isPrimary={props.isPrimary}
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setOutcome(null);
          try {
            const text = await props.run();
            setOutcome({ ok: true, text: text ?? t.common.done });
          } catch (error) {
            setOutcome({ ok: false, text: actionErrorText(error, t.actionError) });
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? '…' : props.label}
      </Button>
      {outcome ? (
        <SM role="status" style={{ color: outcome.ok ? 'inherit' : '#cc3340' }}>
          {outcome.text}
        </SM>
      ) : null}
    </span>
  );
}
