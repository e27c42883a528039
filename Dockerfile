# Build in the Swift image, run on slim Debian with only the runtime libraries.
# Both stages install packages with the project's own script, so they match a bare-metal install.
FROM swift:6.3-bookworm AS build
WORKDIR /src
COPY scripts/install-deps.sh scripts/install-deps.sh
RUN bash scripts/install-deps.sh
COPY . .
# Portable x86-64 build: the image may run on CPUs without AVX2. The Swift runtime is linked
# statically so the runtime stage needs no toolchain.
RUN swift build -c release --static-swift-stdlib --product kiln \
    && install -D "$(swift build -c release --static-swift-stdlib --show-bin-path)/kiln" /out/kiln

FROM debian:bookworm-slim
COPY scripts/install-deps.sh /tmp/install-deps.sh
RUN bash /tmp/install-deps.sh --runtime \
    && rm -rf /var/lib/apt/lists/* /tmp/install-deps.sh
COPY --from=build /out/kiln /usr/local/bin/kiln
COPY jobs /opt/kiln/jobs
RUN useradd --create-home --uid 10001 kiln
USER 10001
WORKDIR /work
ENTRYPOINT ["kiln"]
CMD ["--help"]
