namespace ProtoHttp.FunctionalTests.Infrastructure;

/// <summary>The checkout's root folder, found from the test binaries by walking up to ProtoHttp.sln.</summary>
public static class RepositoryRoot
{
    public static string Path { get; } = Find();

    private static string Find()
    {
        for (var folder = new DirectoryInfo(AppContext.BaseDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(System.IO.Path.Combine(folder.FullName, "ProtoHttp.sln")))
            {
                return folder.FullName;
            }
        }

        throw new InvalidOperationException("ProtoHttp.sln was not found above " + AppContext.BaseDirectory);
    }
}
