#!/usr/bin/env bash
# Offline image preparation, for machines with a Docker engine but no container registry (air-gapped
# CI, this project's CI). It builds, under the very tags docker-compose.yml and the Dockerfile name,
# the images they would otherwise pull:
#
#   ghcr.io/shopify/toxiproxy:2.12.0  the real Toxiproxy, static binaries from the Go module proxy
#                                     in a FROM scratch image (upstream's image is built the same way)
#   node:20-slim                      Debian bookworm minbase + this machine's Node 20 and npm
#                                     (bookworm's own nodejs is 18)
#   prom/prometheus:v2.42.0           Debian bookworm's prometheus package (2.42) on the same base
#
# Users with a registry never run this: `docker compose up` pulls the upstream images. Each image
# carries a label with the hash of its inputs; a rerun skips an image whose tag already has that
# hash, and the debootstrap tarball is cached under .tools/images (gitignored), so reruns take
# seconds. Prints one line per image saying what it did. Needs root (debootstrap), go, node 20,
# debootstrap and a running Docker engine.
set -euo pipefail
cd "$(dirname "$0")/.."

CACHE="$PWD/.tools/images"
HASH_LABEL=io.a2a-rig.prepare-images.hash
TOXIPROXY_MODULE=github.com/Shopify/toxiproxy/v2
TOXIPROXY_VERSION=2.12.0
TOXIPROXY_TAG=ghcr.io/shopify/toxiproxy:${TOXIPROXY_VERSION}
NODE_TAG=node:20-slim
PROMETHEUS_TAG=prom/prometheus:v2.42.0
BASE_TAG=a2a-rig/bookworm-minbase:local
# The Debian mirror this machine's apt already uses (its first main archive), unless told otherwise.
apt_mirror() {
  { cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true; } \
    | awk '$1 == "URIs:" || $1 == "deb" { print ($1 == "deb" && $2 ~ /^\[/) ? $3 : $2 }' | grep -v -- '-security' | head -n1 || true
}
DEBIAN_MIRROR=${DEBIAN_MIRROR:-$(apt_mirror)}
SCRIPT_HASH=$(sha256sum "$0" | cut -c1-16)

say() { echo "prepare-images: $*"; }
die() { echo "prepare-images: $*" >&2; exit 1; }

command -v docker >/dev/null || die "no docker client on PATH"
docker info >/dev/null 2>&1 || die "no Docker engine answers (start dockerd first)"
mkdir -p "$CACHE"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

hash_of() { printf '%s\n' "$SCRIPT_HASH" "$@" | sha256sum | cut -c1-16; }
# True when $1 exists locally with label hash $2.
up_to_date() { [ "$(docker image inspect -f "{{index .Config.Labels \"$HASH_LABEL\"}}" "$1" 2>/dev/null)" = "$2" ]; }
# The legacy builder's deprecation notice is noise; real errors are shown.
build() { docker build -q -t "$1" "$2" >/dev/null 2>"$WORK/build.log" || { grep -v -i -e deprecat -e buildx -e 'docs.docker.com' "$WORK/build.log" >&2; die "docker build of $1 failed"; }; }
size_of() { docker image inspect -f '{{.Size}}' "$1" | awk '{ printf "%.0f MB", $1 / 1e6 }'; }

# --- Debian bookworm minbase, the base of node:20-slim and prometheus --------------------------
BASE_TAR="$CACHE/bookworm-minbase.tar"
# The base is named by what it is made of (suite, variant, mirror), not by the tarball's bytes: a
# debootstrap is never byte-identical twice, and a fresh checkout without the cached tarball must
# not rebuild every image above an unchanged base.
BASE_HASH=$(hash_of base bookworm minbase "$DEBIAN_MIRROR")
if up_to_date "$BASE_TAG" "$BASE_HASH"; then
  say "$BASE_TAG up to date (hash $BASE_HASH), skipped"
else
  if [ ! -s "$BASE_TAR" ]; then
    command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
    [ "$(id -u)" = 0 ] || die "debootstrap needs root"
    [ -n "$DEBIAN_MIRROR" ] || die "no Debian mirror in /etc/apt/sources.list(.d): set DEBIAN_MIRROR"
    debootstrap --variant=minbase bookworm "$WORK/rootfs" "$DEBIAN_MIRROR" >"$WORK/debootstrap.log" 2>&1 \
      || { tail -n 20 "$WORK/debootstrap.log" >&2; die "debootstrap failed"; }
    rm -rf "$WORK/rootfs/var/cache/apt/archives/"*.deb "$WORK/rootfs/var/lib/apt/lists/"*
    tar -C "$WORK/rootfs" -cf "$BASE_TAR.part" . && mv "$BASE_TAR.part" "$BASE_TAR"
    rm -rf "$WORK/rootfs"
    say "debootstrapped bookworm minbase into $BASE_TAR"
  fi
  docker import --change "LABEL $HASH_LABEL=$BASE_HASH" --change 'CMD ["/bin/bash"]' "$BASE_TAR" "$BASE_TAG" >/dev/null 2>&1 \
    || docker import --change 'CMD ["/bin/bash"]' "$BASE_TAR" "$BASE_TAG.raw" >/dev/null
  # Older engines refuse LABEL in --change; a one-line build adds it.
  if ! up_to_date "$BASE_TAG" "$BASE_HASH"; then
    printf 'FROM %s\nLABEL %s=%s\n' "$BASE_TAG.raw" "$HASH_LABEL" "$BASE_HASH" | docker build -q -t "$BASE_TAG" - >/dev/null 2>&1
    docker rmi "$BASE_TAG.raw" >/dev/null 2>&1 || true
  fi
  say "$BASE_TAG imported (hash $BASE_HASH)"
fi

# --- ghcr.io/shopify/toxiproxy:2.12.0 -----------------------------------------------------------
TOXI_HASH=$(hash_of toxiproxy "$TOXIPROXY_VERSION" "$(go version 2>/dev/null || echo no-go)")
if up_to_date "$TOXIPROXY_TAG" "$TOXI_HASH"; then
  say "$TOXIPROXY_TAG up to date (hash $TOXI_HASH), skipped"
else
  command -v go >/dev/null || die "no Go toolchain on PATH (needed to build Toxiproxy)"
  CGO_ENABLED=0 GOBIN="$WORK/toxiproxy" go install \
    -ldflags="-s -w -X ${TOXIPROXY_MODULE}.Version=${TOXIPROXY_VERSION}" \
    "${TOXIPROXY_MODULE}/cmd/server@v${TOXIPROXY_VERSION}" "${TOXIPROXY_MODULE}/cmd/cli@v${TOXIPROXY_VERSION}"
  mv "$WORK/toxiproxy/server" "$WORK/toxiproxy/toxiproxy"
  mv "$WORK/toxiproxy/cli" "$WORK/toxiproxy/toxiproxy-cli"
  # Same layout, entrypoint and default command as upstream's image.
  cat >"$WORK/toxiproxy/Dockerfile" <<EOF
FROM scratch
COPY toxiproxy /toxiproxy
COPY toxiproxy-cli /toxiproxy-cli
LABEL $HASH_LABEL=$TOXI_HASH \\
      org.opencontainers.image.description="Toxiproxy $TOXIPROXY_VERSION: static go install of $TOXIPROXY_MODULE/cmd/server and cmd/cli, FROM scratch (a2a-rig deploy/prepare-images.sh)"
ENTRYPOINT ["/toxiproxy"]
CMD ["-host=0.0.0.0"]
EOF
  build "$TOXIPROXY_TAG" "$WORK/toxiproxy"
  say "$TOXIPROXY_TAG built from the Go module proxy (hash $TOXI_HASH, $(size_of "$TOXIPROXY_TAG"))"
fi

# --- node:20-slim -------------------------------------------------------------------------------
NODE_BIN=$(command -v node || true)
[ -n "$NODE_BIN" ] || die "no node on PATH (the node:20-slim image copies this machine's Node 20)"
NODE_BIN=$(readlink -f "$NODE_BIN")
NODE_VERSION=$("$NODE_BIN" --version)
case "$NODE_VERSION" in v20.*) ;; *) die "node on PATH is $NODE_VERSION, not 20.x";; esac
NPM_DIR=$(dirname "$NODE_BIN")/../lib/node_modules/npm
[ -f "$NPM_DIR/package.json" ] || die "no npm next to $NODE_BIN (looked in $NPM_DIR)"
NODE_INCLUDE=$(dirname "$NODE_BIN")/../include/node
[ -f "$NODE_INCLUDE/node_version.h" ] || die "no Node headers next to $NODE_BIN (looked in $NODE_INCLUDE)"
# A machine whose TLS goes through an intercepting proxy trusts it through NODE_EXTRA_CA_CERTS; the
# image gets the same bundle and variable, or npm ci in the Dockerfile cannot reach the registry.
CA_BUNDLE=${NODE_EXTRA_CA_CERTS:-}
[ -z "$CA_BUNDLE" ] || [ -f "$CA_BUNDLE" ] || die "NODE_EXTRA_CA_CERTS names $CA_BUNDLE, which is not a file"
NODE_HASH=$(hash_of node "$BASE_HASH" "$(sha256sum "$NODE_BIN" | cut -c1-64)" "$(cat "$NPM_DIR/package.json" "$NODE_INCLUDE/node_version.h" | sha256sum)" "$( [ -z "$CA_BUNDLE" ] || sha256sum <"$CA_BUNDLE")")
if up_to_date "$NODE_TAG" "$NODE_HASH"; then
  say "$NODE_TAG up to date (node $NODE_VERSION, hash $NODE_HASH), skipped"
else
  mkdir -p "$WORK/node"
  cp "$NODE_BIN" "$WORK/node/node"
  cp -a "$NPM_DIR" "$WORK/node/npm"
  cp -a "$NODE_INCLUDE" "$WORK/node/include"
  CA_LINES=""
  if [ -n "$CA_BUNDLE" ]; then
    cp "$CA_BUNDLE" "$WORK/node/extra-ca.crt"
    CA_LINES=$'COPY extra-ca.crt /usr/local/share/a2a-rig/extra-ca.crt\nENV NODE_EXTRA_CA_CERTS=/usr/local/share/a2a-rig/extra-ca.crt'
  fi
  # The user `node` (uid/gid 1000) and /usr/local layout match the official node image, which the
  # Dockerfile relies on (USER node, chown node:node).
  cat >"$WORK/node/Dockerfile" <<EOF
FROM $BASE_TAG
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
# The headers, as in the official image; npm_config_nodedir makes node-gyp use them instead of
# downloading them from nodejs.org (an air-gapped machine builds better-sqlite3 from source).
COPY include /usr/local/include/node
ENV npm_config_nodedir=/usr/local
$CA_LINES
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
LABEL $HASH_LABEL=$NODE_HASH \\
      org.opencontainers.image.description="Node $NODE_VERSION: debootstrap --variant=minbase bookworm + this machine's node binary and npm${CA_BUNDLE:+ and its CA bundle (NODE_EXTRA_CA_CERTS)} (a2a-rig deploy/prepare-images.sh)"
CMD ["node"]
EOF
  build "$NODE_TAG" "$WORK/node"
  say "$NODE_TAG built from bookworm minbase + node $NODE_VERSION (hash $NODE_HASH, $(size_of "$NODE_TAG"))"
fi

# --- prom/prometheus:v2.42.0 --------------------------------------------------------------------
PROM_HASH=$(hash_of prometheus "$BASE_HASH" "$DEBIAN_MIRROR")
if up_to_date "$PROMETHEUS_TAG" "$PROM_HASH"; then
  say "$PROMETHEUS_TAG up to date (hash $PROM_HASH), skipped"
else
  mkdir -p "$WORK/prometheus"
  # Upstream's layout: /bin/prometheus and /bin/promtool (merged /usr), config in /etc/prometheus,
  # data in /prometheus, runs as nobody, entrypoint /bin/prometheus.
  cat >"$WORK/prometheus/Dockerfile" <<EOF
FROM $BASE_TAG
RUN echo 'deb $DEBIAN_MIRROR bookworm main' >/etc/apt/sources.list \\
 && apt-get update -qq \\
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null \\
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /usr/share/doc /usr/share/man \\
 && mkdir -p /prometheus && chown nobody:nogroup /prometheus
LABEL $HASH_LABEL=$PROM_HASH \\
      org.opencontainers.image.description="Prometheus from Debian bookworm's package on debootstrap minbase (a2a-rig deploy/prepare-images.sh)"
USER nobody
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
EOF
  build "$PROMETHEUS_TAG" "$WORK/prometheus"
  say "$PROMETHEUS_TAG built from Debian's prometheus $(docker run --rm --entrypoint /bin/prometheus "$PROMETHEUS_TAG" --version 2>&1 | head -n1 | awk '{print $3}') (hash $PROM_HASH, $(size_of "$PROMETHEUS_TAG"))"
fi
