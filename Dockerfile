# gradtrace: the frontend built with node, then a slim Python image with torch (CPU).
#   docker build -t gradtrace .            CPU image
#   docker build --build-arg TORCH_INDEX=https://download.pytorch.org/whl/cu124 -t gradtrace:gpu .

FROM node:20-slim AS frontend
WORKDIR /src
COPY frontend/package.json frontend/package-lock.json* frontend/
RUN cd frontend && npm ci --no-audit --no-fund
COPY frontend/ frontend/
COPY backend/ backend/
# `npm run build` writes the app into backend/gradtrace/static.
RUN cd frontend && npm run build

FROM python:3.11-slim AS app
ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
# bubblewrap builds each worker's sandbox; libseccomp loads its system-call filter.
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap libseccomp2 \
 && rm -rf /var/lib/apt/lists/*
RUN pip install --index-url "${TORCH_INDEX}" torch
COPY pyproject.toml setup.py MANIFEST.in LICENSE README.md ./
COPY backend/ backend/
# The app built in the first stage: setup.py finds it there and builds nothing.
COPY --from=frontend /src/backend/gradtrace/static/ backend/gradtrace/static/
RUN pip install ".[redis]"
# The server runs as an ordinary user, on a read-only root (docker-compose.yml); each
# worker runs in a bubblewrap sandbox (own user, mount, pid and network namespaces,
# read-only binds of the Python runtime only) under a seccomp filter, rlimits and an
# audit hook. `gradtrace doctor` says which layers this container gives them.
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin gradtrace
USER 10001:10001
EXPOSE 8000
ENV GRADTRACE_HOST=0.0.0.0 GRADTRACE_PORT=8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/api/health', timeout=4)"
CMD ["gradtrace", "serve"]
