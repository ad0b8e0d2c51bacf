import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { useI18n } from '../hooks/useI18n';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Zendesk's iframe may deny the Clipboard API; the selection fallback still works there.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = typeof document.execCommand === 'function' && document.execCommand('copy');
    area.remove();
    return ok;
  }
}

/** Copies the raw (not defanged) value, which agents need for reports to other parties. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const { t } = useI18n();
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <>
      <Button
        size="small"
        isBasic
        aria-label={label}
        onClick={async () => setStatus((await copyText(value)) ? 'copied' : 'failed')}
      >
        {t('common.copy')}
      </Button>
      <span role="status" aria-live="polite">
        {status === 'copied'
          ? t('common.copied')
          : status === 'failed'
            ? t('common.copyFailed')
            : ''}
      </span>
    </>
  );
}
