import { useCallback, useEffect, useState } from 'react';
import type { AdminInvitation } from '@sesame/contracts';
import { answerInvitation, openInvitation } from './api';
import type { Failure } from './api';
import { ChargeSection } from './components/ChargeSection';
import { LanguageSwitch } from './components/LanguageSwitch';
import { ProblemPage } from './components/ProblemPage';
import { SsoSetup } from './components/SsoSetup';
import { chooseLanguage, formatDate, messages } from './i18n';
import type { InvitationProblem } from './i18n';

type Phase =
  | { name: 'loading' }
  | { name: 'problem'; problem: InvitationProblem }
  | { name: 'ready'; invitation: AdminInvitation }
  | { name: 'declined'; organization: string };

/** The onboarding page: opens the invitation, then lets the admin answer it and set up SSO. */
interface Props {
  token: string | null;
  /** `?lang=` of the link, which wins over the organization's locale and the browser's languages. */
  requestedLanguage: string | null;
  browserLanguages: readonly string[];
  /** `request_id` of a test sign-in the browser comes back from. */
  testRequestId: string | null;
}

export function App({ token, requestedLanguage, browserLanguages, testRequestId }: Props) {
  const [language, setLanguage] = useState(() => chooseLanguage(requestedLanguage, browserLanguages));
  const [phase, setPhase] = useState<Phase>(token ? { name: 'loading' } : { name: 'problem', problem: 'missing' });
  const t = messages[language];

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = `${t.title} · Sesame`;
  }, [language, t]);
  useEffect(() => {
    if (!token) return;
    let current = true;
    void openInvitation(token).then((answer) => {
      if (!current) return;
      if (!answer.ok) return setPhase({ name: 'problem', problem: answer.problem ?? 'invalid' });
      const locale = answer.body.organization.locale;
      if (!requestedLanguage && locale) setLanguage(chooseLanguage(null, [locale, ...browserLanguages]));
      setPhase({ name: 'ready', invitation: answer.body });
    });
    return () => {
      current = false;
    };
  }, [token, requestedLanguage, browserLanguages]);

  /** A refusal of the link itself ends on the page that explains it. */
  const onFailure = useCallback((failure: Failure) => {
    if (failure.problem) setPhase({ name: 'problem', problem: failure.problem });
  }, []);

  const answer = async (choice: 'accept' | 'decline') => {
    if (!token || phase.name !== 'ready') return false;
    const result = await answerInvitation(token, choice);
    if (!result.ok) {
      if (result.problem && result.problem !== 'unavailable') setPhase({ name: 'problem', problem: result.problem });
      return false;
    }
    if (choice === 'decline') setPhase({ name: 'declined', organization: phase.invitation.organization.name });
    else setPhase({ name: 'ready', invitation: { ...phase.invitation, admin: result.body } });
    return true;
  };

  return (
    <div className="page">
      <header className="header">
        <span className="brand">Sesame</span>
        <LanguageSwitch language={language} onChange={setLanguage} />
      </header>
      <main className="content">
        {phase.name === 'loading' && <p role="status">{t.loading}</p>}
        {phase.name === 'problem' && <ProblemPage text={t.problems[phase.problem]} problem={phase.problem} />}
        {phase.name === 'declined' && (
          <section className="card" data-testid="declined">
            <h1>{t.charge.declinedTitle}</h1>
            <p>{t.charge.declinedText(phase.organization)}</p>
          </section>
        )}
        {phase.name === 'ready' && (
          <>
            <h1>{t.title}</h1>
            <p data-testid="invited-as">{t.invitedAs(phase.invitation.admin.email, phase.invitation.organization.name)}</p>
            {phase.invitation.organization.allowed_email_domains.length > 0 && (
              <p data-testid="domains">{t.signInDomains(phase.invitation.organization.allowed_email_domains.join(', '))}</p>
            )}
            <p className="muted">{t.validUntil(formatDate(language, phase.invitation.expires_at))}</p>
            <ChargeSection t={t} language={language} invitation={phase.invitation} onAnswer={answer} />
            {token && <SsoSetup t={t} language={language} token={token} testRequestId={testRequestId} onFailure={onFailure} />}
          </>
        )}
      </main>
    </div>
  );
}
