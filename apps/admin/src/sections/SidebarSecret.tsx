import { useState } from 'react';
import { Alert } from '@zendeskgarden/react-notifications';
import { Code } from '@zendeskgarden/react-typography';
import { api, type Overview } from '../api';
import { ActionButton, Row, Section } from '../ui';

export function SidebarSecret({ overview }: { overview: Overview }) {
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <Section id="sidebar-secret" title="Sidebar shared secret">
      <Row label="Secret">{overview.sidebarSecret === 'set' ? 'set' : 'not set'}</Row>
      <ActionButton
        id="rotate-secret"
        label="Rotate the secret"
        run={async () => {
          setSecret((await api.rotateSidebarSecret()).secret);
          return 'rotated';
        }}
      />
      {secret ? (
        <Alert type="warning" style={{ marginTop: 12 }}>
          <Alert.Title>Shown once</Alert.Title>
          <Alert.Paragraph>
            Paste it into the incident-desk app&apos;s <strong>shared_secret</strong> setting in
            Zendesk (Admin Center, Apps and integrations, Zendesk Support apps, incident-desk). The
            sidebar stops working until the setting has the new value.
          </Alert.Paragraph>
          <Code id="new-secret">{secret}</Code>
        </Alert>
      ) : null}
    </Section>
  );
}
