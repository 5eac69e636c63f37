import { Button } from '@fluentui/react-components';
import { BookOpenRegular } from '@fluentui/react-icons';
import { useNavigate, useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';

/** /playbooks/new and /playbooks/{id}. */
export default function PlayEditorPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const creating = !id;
  return (
    <EmptyState
      icon={BookOpenRegular}
      title={creating ? 'New Play' : 'Edit Play'}
      actions={
        <Button onClick={() => navigate('/playbooks')} data-testid="play-editor-back">
          Back to Playbook
        </Button>
      }
    >
      {creating
        ? 'The play editor arrives with the playbook module: name, description, prompts and the email template of a play.'
        : `The play editor arrives with the playbook module; this play (${id}) will open here for editing.`}
    </EmptyState>
  );
}
