# leasewise: the Slack app (`leasewise serve`) in a slim image, run as an unprivileged user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=3000 \
    DATABASE_URL=sqlite:////data/leasewise.db \
    XDG_CACHE_HOME=/data/cache

# A fixed numeric id, so USER below is resolvable without /etc/passwd (hadolint DL3066)
# and orchestrators can verify runAsNonRoot. /data holds the SQLite default and the
# engine cache; teams set DATABASE_URL to PostgreSQL instead.
RUN groupadd --system --gid 10001 leasewise \
    && useradd --system --no-log-init --uid 10001 --gid leasewise \
       --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin leasewise \
    && mkdir -p /data \
    && chown 10001:10001 /data

WORKDIR /app
COPY pyproject.toml README.md ./
COPY core ./core
COPY bot ./bot
COPY storage ./storage
RUN pip install --no-cache-dir .

# The leasewise user created above.
USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000

# Asks the running server's /healthz (which checks the database); python-slim has no curl.
HEALTHCHECK --interval=30s --timeout=10s --start-period=30s --retries=3 \
    CMD ["leasewise", "health"]

ENTRYPOINT ["leasewise"]
CMD ["serve"]
