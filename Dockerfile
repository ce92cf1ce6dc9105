# The engine core runs compiled with mypyc (engine/_compiled.py): a builder stage with a C compiler and mypy
# installs the server into a virtualenv and compiles the engine from the same sources (the build's stamp is their
# hash, so it fits the installed copy); the image gets the virtualenv alone, and refuses to start without its build.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
RUN python -m pip install --no-cache-dir "mypy>=1.10" "setuptools>=68" && python -m venv /opt/cardroom
WORKDIR /app
COPY pyproject.toml README.md ./
COPY engine engine
COPY protocol protocol
COPY server server
COPY client client
COPY bots bots
COPY scripts/build_engine.py scripts/build_engine.py
# the build is profile-guided: it runs bench.room and bench.random_play on its instrumented build, with the builder's
# Python, which gets the server's dependencies for that run
COPY bench bench
RUN /opt/cardroom/bin/pip install --no-cache-dir . \
 && python -m pip install --no-cache-dir . \
 && python scripts/build_engine.py --require \
 && cp -r .engine-build /opt/cardroom/lib/python3.11/site-packages/ \
 && cd / && CARDROOM_ENGINE=compiled /opt/cardroom/bin/python -c "import engine.registry"

FROM python:3.11-slim
COPY --from=build /opt/cardroom /opt/cardroom
ENV PATH=/opt/cardroom/bin:$PATH CARDROOM_ENGINE=compiled
WORKDIR /app
EXPOSE 8765
CMD ["cardroom", "serve", "--host", "0.0.0.0", "--port", "8765", "--allow-plain"]
