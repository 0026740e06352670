namespace ProtoHttp.Forms;

/// <summary>
/// The canonical paths a form has bound a value to so far, to refuse a second value for a field that holds one. Most
/// forms and query strings bind a field or two: the first path is kept as it is, and a set is made only for a third.
/// </summary>
internal struct BoundPaths
{
    private string? _first;
    private string? _second;
    private HashSet<string>? _more;

    /// <summary>Adds <paramref name="path"/>; false when it was bound already.</summary>
    public bool Add(string path)
    {
        if (_first is null)
        {
            _first = path;
            return true;
        }

        if (string.Equals(_first, path, StringComparison.Ordinal) || string.Equals(_second, path, StringComparison.Ordinal))
        {
            return false;
        }

        if (_second is null)
        {
            _second = path;
            return true;
        }

        return (_more ??= new HashSet<string>(StringComparer.Ordinal)).Add(path);
    }
}
