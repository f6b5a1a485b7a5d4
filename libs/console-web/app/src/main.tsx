import { render } from 'preact';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from './app';
import './styles.css';

const queries = new QueryClient({
  defaultOptions: {
    // A refusal (400, 401, 404) will not change by asking again; a network failure may.
    queries: { retry: (count, error) => count < 2 && !('status' in (error as object)), staleTime: 10_000 },
  },
});

render(
  <QueryClientProvider client={queries}>
    <App />
  </QueryClientProvider>,
  document.getElementById('app')!,
);
