import type { InvitationProblem } from '../i18n';

/** A clear page for a link or a session that cannot be used, and what to do: most often, ask for a new link. */
export function ProblemPage({ problem, text }: { problem: InvitationProblem; text: { title: string; text: string } }) {
  return (
    <section className="card problem" data-testid={`problem-${problem}`} role="alert">
      <h1>{text.title}</h1>
      <p>{text.text}</p>
    </section>
  );
}
