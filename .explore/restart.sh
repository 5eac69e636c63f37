cd /work/wt/i16
kill $(cat /tmp/i16-server.pid) 2>/dev/null; sleep 2
PORT=$(cat /tmp/i16-port)
DATABASE_URL=postgres://postgres@127.0.0.1:5432/i16_explore PORT=$PORT HOST=127.0.0.1 PUBLIC_URL=http://localhost:$PORT LOG_LEVEL=warn NODE_ENV=production REALTIME_SECRET=e2e-realtime-secret-0123456789abcdef SECRETS_KEY=e2e-secrets-key-0123456789abcdef0123456789 nohup node_modules/.bin/node --import tsx server/src/main.ts > /tmp/i16-server.log 2>&1 &
echo $! > /tmp/i16-server.pid
for i in $(seq 1 60); do curl -sf localhost:$PORT/health >/dev/null && break; sleep 1; done
