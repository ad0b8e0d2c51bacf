import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { MD } from '@zendeskgarden/react-typography';
import { subdomainFromInput } from '@incident-desk/zendesk-api/subdomain';
import { useTexts } from './i18n/i18n';

/** Signed out: the subdomain (or a pasted Zendesk address), then Zendesk's sign-in and approval. */
export function SignIn(props: { navigate?: (url: string) => void }) {
  const t = useTexts().signIn;
  const [subdomain, setSubdomain] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const navigate = props.navigate ?? ((url: string) => window.location.assign(url));
  return (
    <form
      id="signed-out"
      noValidate
      style={{ maxWidth: 420 }}
      onSubmit={(event) => {
        event.preventDefault();
        const parsed = subdomainFromInput(subdomain);
        if (!parsed) {
          setProblem(subdomain.trim() ? t.notASubdomain : t.empty);
          return;
        }
        setProblem(null);
        // A navigation, not a form submission: the page's CSP (form-action 'self') would stop the
        // redirect to Zendesk that follows a submission.
        navigate(`/admin/sign-in?${new URLSearchParams({ subdomain: parsed })}`);
      }}
    >
      <MD style={{ marginBottom: 12 }}>{t.intro}</MD>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>{t.label}</Field.Label>
        <Field.Hint>{t.hint}</Field.Hint>
        <Input
          name="subdomain"
          autoComplete="off"
          value={subdomain}
          validation={problem ? 'error' : undefined}
          onChange={(event) => setSubdomain(event.target.value)}
        />
        {problem ? (
          <Field.Message validation="error" id="subdomain-error">
            {problem}
          </Field.Message>
        ) : null}
      </Field>
      <Button type="submit" isPrimary id="sign-in-with-zendesk">
        {t.submit}
      </Button>
    </form>
  );
}
