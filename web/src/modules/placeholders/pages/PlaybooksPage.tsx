import { useNavigate } from 'react-router';
import { Button } from '@fluentui/react-components';
import { AddRegular, BookOpenRegular } from '@fluentui/react-icons';
import { EmptyState } from '../../../components/EmptyState';

export default function PlaybooksPage() {
  const navigate = useNavigate();
  return (
    <EmptyState
      icon={BookOpenRegular}
      title="Playbook"
      actions={
        <Button appearance="primary" icon={<AddRegular />} onClick={() => navigate('/playbooks/new')} data-testid="playbooks-new-play">
          New Play
        </Button>
      }
    >
      Plays arrive with the playbook module: the plays table, the play editor and AI email generation for your contacts.
    </EmptyState>
  );
}
