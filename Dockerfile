# The bot in one image: `docker build -t pyramid-games-bot .`, then see compose.yaml and docs/deploy.md.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
RUN useradd --create-home --uid 1000 bot
COPY pyproject.toml README.md LICENSE ./
COPY ai ./ai
COPY bot ./bot
COPY cogs ./cogs
COPY games ./games
COPY renderers ./renderers
# the rules pages /rules shows (cogs/help/pages links to them)
COPY docs/rules ./docs/rules
RUN pip install '.[postgres]'
# the SQLite file's folder, owned by the user the bot runs as (a new named volume copies that ownership;
# a bind mount keeps the host folder's: see docs/deploy.md)
RUN mkdir -p /app/data && chown bot:bot /app/data
USER bot
# SQLite (the default) keeps its file here; mount a volume to keep games across restarts
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
