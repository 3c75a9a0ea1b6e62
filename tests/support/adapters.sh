# The adapters a shell-driven suite runs against: `adapters_from_args "$@"` sets ADAPTERS to
# the script's arguments (each `native` or `warp`), or to both when there are none, and exits
# 2 on an unknown name.
adapters_from_args() {
    ADAPTERS=("$@")
    [ ${#ADAPTERS[@]} -gt 0 ] || ADAPTERS=(native warp)
    local adapter
    for adapter in "${ADAPTERS[@]}"; do
        case $adapter in
            native | warp) ;;
            *) echo "unknown adapter '$adapter' (native|warp)" >&2 && exit 2 ;;
        esac
    done
}
