import { createLogger } from '../logging/logger';
import { exitWhenIdle } from './exit-when-idle';

describe('exitWhenIdle', () => {
  afterEach(() => {
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('exits 0 once the wait is over, naming in the log what still held the process', () => {
    jest.useFakeTimers();
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const lines: string[] = [];
    const logger = createLogger('identity', 'info', { write: (line: string) => void lines.push(line) });
    exitWhenIdle(logger, 'identity', 1_000);

    jest.advanceTimersByTime(999);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(exit).toHaveBeenCalledWith(0);
    const logged = JSON.parse(lines[0] as string) as { level: string; msg: string; resources: string[] };
    expect(logged).toMatchObject({ level: 'warn', msg: 'identity still held after stopping; exiting' });
    expect(Array.isArray(logged.resources)).toBe(true);
  });

  it('does not itself keep the process alive', () => {
    const timer = jest.spyOn(global, 'setTimeout');
    exitWhenIdle(createLogger('gateway', 'silent'), 'gateway');
    const handle = timer.mock.results[0]?.value as NodeJS.Timeout;
    expect(handle.hasRef()).toBe(false);
    clearTimeout(handle);
  });
});
