// An unknown sender or recipient, made a contact in one step: the contact and the company of its
// email domain (found by the server, or created with the name typed here; a personal mail domain
// gets none). POST /api/v1/contact/from-email.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Field, Input, Text, makeStyles, tokens } from '@fluentui/react-components';
import { PersonAddRegular } from '@fluentui/react-icons';
import { companyNameFromDomain, emailDomain, isPersonalEmailDomain, personNameFromSender } from '@dealscout/shared/domain';
import type { ContactFromEmailResponse } from '@dealscout/shared/contracts';
import { fieldIssues, serverMessage, useApi, useNotify } from '@dealscout/shared/ui';
import type { Participant } from './people';

export const NOT_IN_DEALSCOUT = 'is not in Dealscout yet.';

const useStyles = makeStyles({
  card: { margin: tokens.spacingHorizontalM, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, '& > *': { flex: '1 1 0', minWidth: 0 } },
  hint: { color: tokens.colorNeutralForeground3 },
});

export function NewContactFromEmail({ person, onCreated }: { person: Participant; onCreated: (r: ContactFromEmailResponse) => void }) {
  const styles = useStyles();
  const api = useApi();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const domain = emailDomain(person.email);
  const personal = !domain || isPersonalEmailDomain(domain);
  const [name, setName] = useState(() => personNameFromSender(person.displayName, person.email));
  const [companyName, setCompanyName] = useState(() => (personal ? '' : companyNameFromDomain(domain)));

  const create = useMutation({
    mutationFn: () =>
      api.mailbox.contactFromEmail({ contact: { ...name, email: person.email }, companyName: personal ? null : companyName }),
    onSuccess: async (r) => {
      notify.success(r.message);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['mailbox-match'] }),
        queryClient.invalidateQueries({ queryKey: ['contacts'] }),
        queryClient.invalidateQueries({ queryKey: ['companies'] }),
      ]);
      onCreated(r);
    },
    onError: (e) => {
      if (fieldIssues(e).length === 0) notify.error(serverMessage(e) ?? 'Error creating contact');
    },
  });
  const issues = Object.fromEntries(fieldIssues(create.error).map((i) => [i.path.split('.').pop() ?? i.path, i.message]));

  return (
    <Card className={styles.card} data-testid="new-contact-from-email">
      <Text weight="semibold">
        {person.displayName || person.email} {NOT_IN_DEALSCOUT}
      </Text>
      <Text size={200} className={styles.hint}>
        {person.email}
      </Text>
      <div className={styles.row}>
        <Field label="First name" required validationMessage={issues.firstName}>
          <Input
            value={name.firstName}
            onChange={(_, d) => setName((n) => ({ ...n, firstName: d.value }))}
            data-testid="new-contact-first-name"
          />
        </Field>
        <Field label="Last name" required validationMessage={issues.lastName}>
          <Input
            value={name.lastName}
            onChange={(_, d) => setName((n) => ({ ...n, lastName: d.value }))}
            data-testid="new-contact-last-name"
          />
        </Field>
      </div>
      {personal ? (
        <Text size={200} className={styles.hint} data-testid="new-contact-personal">
          {domain || 'This address'} is a personal mail domain: no company is created.
        </Text>
      ) : (
        <Field label="Company" hint={`Found or created for ${domain}`} validationMessage={issues.companyName ?? issues.email}>
          <Input value={companyName} onChange={(_, d) => setCompanyName(d.value)} data-testid="new-contact-company" />
        </Field>
      )}
      <Button
        appearance="primary"
        icon={<PersonAddRegular />}
        disabled={create.isPending}
        onClick={() => create.mutate()}
        data-testid="new-contact-create"
      >
        {personal ? 'Create contact' : 'Create contact and company'}
      </Button>
    </Card>
  );
}
