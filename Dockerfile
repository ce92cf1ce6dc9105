FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY protocol protocol
COPY server server
COPY client client
RUN pip install --no-cache-dir .
EXPOSE 8765
CMD ["cardroom", "serve", "--host", "0.0.0.0", "--port", "8765", "--allow-plain"]
