# Slim image running the bot; the database lives under the /app/data volume.
FROM python:3.11-slim

# Keep in step with pyproject.toml's version (a test checks): docker build --build-arg VERSION=... to override.
ARG VERSION=0.1.0
LABEL org.opencontainers.image.title="Aide-de-Camp" \
      org.opencontainers.image.description="A Discord bot for play-by-post Napoleonic map campaigns" \
      org.opencontainers.image.version="${VERSION}"

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 ADC_DATA_DIR=/app/data ADC_RULES_DIR=/app/rules
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY assets ./assets
RUN pip install --no-cache-dir . && python -m bot.i18n compile && useradd --create-home --uid 10001 adc && mkdir -p /app/data && chown adc /app/data

USER adc
VOLUME ["/app/data"]
# The bot's watchdog rewrites /app/data/heartbeat every minute; the check reads its age (no Discord needed).
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 CMD ["python", "-m", "bot", "health"]
CMD ["python", "-m", "bot"]
