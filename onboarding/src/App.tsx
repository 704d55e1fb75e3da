import { useCallback, useEffect, useState } from 'react';
import type { AdminInvitation } from '@sesame/contracts';
import { answerInvitation } from './api';
import type { Answer, Failure } from './api';
import { ChargeSection } from './components/ChargeSection';
import { DirectorySetup } from './components/DirectorySetup';
import { DomainSetup } from './components/DomainSetup';
import { FinishSection } from './components/FinishSection';
import { LanguageSwitch } from './components/LanguageSwitch';
import { ProblemPage } from './components/ProblemPage';
import { SsoSetup } from './components/SsoSetup';
import { chooseLanguage, formatDate, messages } from './i18n';
import type { InvitationProblem, Messages } from './i18n';

type Phase =
  | { name: 'loading' }
  | { name: 'problem'; problem: InvitationProblem }
  | { name: 'ready'; invitation: AdminInvitation }
  | { name: 'declined'; organization: string }
  | { name: 'finished'; organization: string; acceptedAt: string };

interface Props {
  /** The link opened (or this browser's session found) before the page rendered. */
  started: Promise<Answer<AdminInvitation>>;
  /** `?lang=` of the link, which wins over the organization's locale and the browser's languages. */
  requestedLanguage: string | null;
  browserLanguages: readonly string[];
  /** `request_id` of a test sign-in the browser comes back from. */
  testRequestId: string | null;
}

/** The SSO set-up's title when the invitation allows it, else the title of the one step it allows. */
function pageTitle(t: Messages, setups: AdminInvitation['allowed_setups']): string {
  if (setups.includes('sso')) return t.title;
  if (setups.includes('directory_sync')) return t.directory.pageTitle;
  return t.domains.title;
}

/**
 * The onboarding page: the session the invitation link opened in this browser lets the admin set
 * up what the invitation allows (SSO, directory sync), then finish (accept) or decline, which
 * ends the session.
 */
export function App({ started, requestedLanguage, browserLanguages, testRequestId }: Props) {
  const [language, setLanguage] = useState(() => chooseLanguage(requestedLanguage, browserLanguages));
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });
  const t = messages[language];

  useEffect(() => {
    document.documentElement.lang = language;
    document.title = `${t.title} · Sesame`;
  }, [language, t]);
  useEffect(() => {
    let current = true;
    void started.then((answer) => {
      if (!current) return;
      if (!answer.ok) return setPhase({ name: 'problem', problem: answer.problem ?? 'invalid' });
      const locale = answer.body.organization.locale;
      if (!requestedLanguage && locale) setLanguage(chooseLanguage(null, [locale, ...browserLanguages]));
      setPhase({ name: 'ready', invitation: answer.body });
    });
    return () => {
      current = false;
    };
  }, [started, requestedLanguage, browserLanguages]);

  /** A refusal of the session itself ends on the page that explains it. */
  const onFailure = useCallback((failure: Failure) => {
    if (failure.problem) setPhase({ name: 'problem', problem: failure.problem });
  }, []);

  const answer = async (choice: 'accept' | 'decline') => {
    if (phase.name !== 'ready') return false;
    const result = await answerInvitation(choice);
    if (!result.ok) {
      if (result.problem && result.problem !== 'unavailable') setPhase({ name: 'problem', problem: result.problem });
      return false;
    }
    const organization = phase.invitation.organization.name;
    if (choice === 'decline') setPhase({ name: 'declined', organization });
    else setPhase({ name: 'finished', organization, acceptedAt: result.body.accepted_invitation_at ?? new Date().toISOString() });
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
        {phase.name === 'finished' && (
          <section className="card accepted" data-testid="finished">
            <h1>{t.finish.doneTitle}</h1>
            <p>{t.finish.doneText(phase.organization, formatDate(language, phase.acceptedAt))}</p>
          </section>
        )}
        {phase.name === 'ready' && (
          <>
            <h1>{pageTitle(t, phase.invitation.allowed_setups)}</h1>
            <p data-testid="invited-as">{t.invitedAs(phase.invitation.admin.email, phase.invitation.organization.name)}</p>
            {phase.invitation.organization.allowed_email_domains.length > 0 && (
              <p data-testid="domains">{t.signInDomains(phase.invitation.organization.allowed_email_domains.join(', '))}</p>
            )}
            <p className="muted" data-testid="session">
              {t.sessionNote(
                formatDate(language, phase.invitation.session.expires_at),
                Math.max(1, Math.round(phase.invitation.session.idle_timeout_seconds / 60)),
              )}
            </p>
            <ChargeSection t={t} language={language} invitation={phase.invitation} onDecline={() => answer('decline')} />
            {phase.invitation.allowed_setups.includes('sso') && (
              <SsoSetup t={t} language={language} testRequestId={testRequestId} onFailure={onFailure} />
            )}
            {phase.invitation.allowed_setups.includes('directory_sync') && (
              <DirectorySetup t={t} language={language} onFailure={onFailure} />
            )}
            {phase.invitation.allowed_setups.includes('domains') && (
              <DomainSetup t={t} language={language} onFailure={onFailure} />
            )}
            <FinishSection t={t} organization={phase.invitation.organization.name} onFinish={() => answer('accept')} />
          </>
        )}
      </main>
    </div>
  );
}
