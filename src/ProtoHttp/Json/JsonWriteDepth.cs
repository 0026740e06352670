namespace ProtoHttp.Json;

/// <summary>
/// How deep the message being written on this thread is nested, so an <c>Any</c> is not unpacked past the depth
/// limit. Protobuf input carries an <c>Any</c>'s payload as bytes, which no parser's nesting limit looks into: each
/// payload unpacked while writing could hold another, nested as deep as the body's size allows, and writing them
/// all would overflow the stack. The writers of one answer run on one thread, without awaiting in between.
/// </summary>
internal static class JsonWriteDepth
{
    [ThreadStatic]
    private static int t_depth;

    /// <summary>The message levels open around the value being written.</summary>
    public static int Current => t_depth;

    /// <summary>Starts an answer; a previous one that failed part way may have left levels open.</summary>
    public static void Reset() => t_depth = 0;

    public static void Enter() => t_depth++;

    public static void Exit() => t_depth--;
}
