import React from 'react';

interface Props {
  title: string;
  retry: string;
  children: React.ReactNode;
}

/** The crash page: a render error shows 'This page crashed.' and a 'Try again' button that reloads. */
export class ErrorBoundary extends React.Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.warn('Page crashed:', error.message);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <main className="crash-page container">
        <h1>{this.props.title}</h1>
        <p className="crash-message">{this.state.error.message}</p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          {this.props.retry}
        </button>
      </main>
    );
  }
}
