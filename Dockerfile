# Tally-Ho: a slim image running the bot as a non-root user; the SQLite file lives
# on a volume so games survive container upgrades.
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    TALLYHO_DATABASE=/data/tallyho.sqlite3

RUN useradd --create-home --uid 10001 tallyho \
    && mkdir -p /data && chown tallyho:tallyho /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY engine ./engine
COPY rendering ./rendering
COPY data ./data
COPY strings ./strings
RUN pip install --no-cache-dir .

USER tallyho
VOLUME ["/data"]
ENTRYPOINT ["python", "-m", "bot"]
