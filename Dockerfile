# Slim image running the bot; the database lives under the /app/data volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 ADC_DATA_DIR=/app/data ADC_RULES_DIR=/app/rules
WORKDIR /app

COPY pyproject.toml README.md ./
COPY bot ./bot
COPY rules ./rules
COPY assets ./assets
RUN pip install --no-cache-dir . && useradd --create-home --uid 10001 adc && mkdir -p /app/data && chown adc /app/data

USER adc
VOLUME ["/app/data"]
CMD ["python", "-m", "bot"]
