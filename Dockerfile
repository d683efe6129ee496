# leasewise: the CLI (and later the Slack bot) in a slim image, run as an unprivileged user.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# A fixed numeric id, so USER below is resolvable without /etc/passwd (hadolint DL3066)
# and orchestrators can verify runAsNonRoot.
RUN groupadd --system --gid 10001 leasewise \
    && useradd --system --no-log-init --uid 10001 --gid leasewise \
       --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin leasewise

WORKDIR /app
COPY pyproject.toml README.md ./
COPY core ./core
COPY bot ./bot
COPY storage ./storage
RUN pip install --no-cache-dir .

# The leasewise user created above.
USER 10001:10001

HEALTHCHECK --interval=30s --timeout=10s --start-period=5s --retries=3 \
    CMD ["leasewise", "--version"]

ENTRYPOINT ["leasewise"]
CMD ["demo"]
