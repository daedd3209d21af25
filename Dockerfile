# Tally-Ho: the project is built into a wheel, and the runtime image installs only that
# wheel, so the image runs exactly what `pip install` ships (tests/test_packaging.py
# repeats these steps without Docker). The bot runs as a non-root user under tini, which
# forwards SIGTERM to it (a graceful shutdown); the SQLite file lives on a volume so
# games survive container upgrades.
FROM python:3.12-slim AS builder

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY . .
RUN pip wheel --no-deps -w /wheels .

FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TINI_SUBREAPER=1 \
    TALLYHO_DATABASE=/data/tallyho.sqlite3

RUN apt-get update \
    && apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 tallyho \
    && mkdir -p /data && chown tallyho:tallyho /data

COPY --from=builder /wheels /wheels
RUN pip install /wheels/*.whl && rm -rf /wheels

USER tallyho
WORKDIR /home/tallyho
VOLUME ["/data"]
ENTRYPOINT ["tini", "--", "python", "-m", "bot"]
