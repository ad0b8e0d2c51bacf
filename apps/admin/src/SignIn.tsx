import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { MD } from '@zendeskgarden/react-typography';
import { subdomainFromInput } from '@incident-desk/zendesk-api/subdomain';

/** Signed out: the subdomain (or a pasted Zendesk address), then Zendesk's sign-in and approval. */
export function SignIn(props: { navigate?: (url: string) => void }) {
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
          setProblem(
            subdomain.trim()
              ? 'That is not a Zendesk subdomain. Enter the part before .zendesk.com, e.g. acme for acme.zendesk.com.'
              : 'Enter your Zendesk subdomain.',
          );
          return;
        }
        setProblem(null);
        // A navigation, not a form submission: the page's CSP (form-action 'self') would stop the
        // redirect to Zendesk that follows a submission.
        navigate(`/admin/sign-in?${new URLSearchParams({ subdomain: parsed })}`);
      }}
    >
      <MD style={{ marginBottom: 12 }}>
        Sign in as a Zendesk admin of the account incident-desk is installed on.
      </MD>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Zendesk subdomain</Field.Label>
        <Field.Hint>
          e.g. acme, or paste your Zendesk address such as https://acme.zendesk.com
        </Field.Hint>
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
        Sign in with Zendesk
      </Button>
    </form>
  );
}
