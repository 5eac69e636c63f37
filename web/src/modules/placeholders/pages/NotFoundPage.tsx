import { useNavigate } from 'react-router';
import { Button } from '@fluentui/react-components';
import { QuestionCircleRegular } from '@fluentui/react-icons';
import { EmptyState } from '../../../components/EmptyState';

export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <EmptyState
      icon={QuestionCircleRegular}
      title="Page not found"
      actions={
        <Button appearance="primary" onClick={() => navigate('/')}>
          Go to Home
        </Button>
      }
    >
      There is no page at this address.
    </EmptyState>
  );
}
