import { useState } from 'react';
import { Button } from '@zendeskgarden/react-buttons';
import { Field, Input } from '@zendeskgarden/react-forms';
import { MD } from '@zendeskgarden/react-typography';

/** Signed out: the subdomain, then Zendesk's own sign-in and approval. */
export function SignIn() {
  const [subdomain, setSubdomain] = useState('');
  return (
    <form
      id="signed-out"
      style={{ maxWidth: 420 }}
      onSubmit={(event) => {
        event.preventDefault();
        // A navigation, not a form submission: the page's CSP (form-action 'self') would stop the
        // redirect to Zendesk that follows a submission.
        window.location.assign(
          `/admin/sign-in?${new URLSearchParams({ subdomain: subdomain.trim() })}`,
        );
      }}
    >
      <MD style={{ marginBottom: 12 }}>
        Sign in as a Zendesk admin of the account incident-desk is installed on.
      </MD>
      <Field style={{ marginBottom: 12 }}>
        <Field.Label>Zendesk subdomain</Field.Label>
        <Input
          name="subdomain"
          required
          pattern="[A-Za-z0-9-]+"
          value={subdomain}
          onChange={(event) => setSubdomain(event.target.value)}
        />
      </Field>
      <Button type="submit" isPrimary id="sign-in-with-zendesk">
        Sign in with Zendesk
      </Button>
    </form>
  );
}
