import { createRoot } from 'react-dom/client';
import { OptionsPage } from '../../options/OptionsPage';
import { extensionStore } from '../../host/extension-host';

createRoot(document.getElementById('root')!).render(<OptionsPage store={extensionStore} />);
