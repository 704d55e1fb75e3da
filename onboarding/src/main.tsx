import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startOnboarding } from './api';
import { takeInvitationToken } from './token';
import './styles.css';

const query = new URL(window.location.href).searchParams;
// Started once, outside React: the link works once, so it must not be opened twice.
const started = startOnboarding(takeInvitationToken(window.location, window.history));

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App
      started={started}
      requestedLanguage={query.get('lang')}
      browserLanguages={navigator.languages}
      testRequestId={query.get('request_id')}
    />
  </StrictMode>,
);
